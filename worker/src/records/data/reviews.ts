import type { ModeratedReview, QueuedReview, Review, ReviewStatus } from '../../../../contract/reviews.ts';
import { HAS_PAST_APPOINTMENT, pastAppointmentParams } from '../../booking/data/bookings.ts';
import type { Sql } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';

interface ReviewRow {
  id: string;
  name: string;
  img: string;
  review: string;
  location: string;
}

export interface ModeratedReviewRow extends ReviewRow {
  status: ReviewStatus;
  version: number;
  created_at: string;
  updated_at: string;
}

const toReview = (row: ReviewRow): Review => ({
  _id: row.id,
  name: row.name,
  img: row.img,
  review: row.review,
  location: row.location,
});

export const toModeratedReview = (row: ModeratedReviewRow): ModeratedReview => ({
  ...toReview(row),
  status: row.status,
  version: row.version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The approved reviews, newest first: the home page's testimonials. */
export async function publishedReviews(db: D1Database): Promise<Review[]> {
  const { results } = await db
    .prepare(
      "SELECT id, name, img, review, location FROM reviews WHERE status = 'approved' ORDER BY created_at DESC, id LIMIT 30",
    )
    .all<ReviewRow>();
  return results.map(toReview);
}

/** A patient's own review (a ModeratedReviewRow, or no row). */
export function ownReviewQuery(db: D1Database, userId: string): D1PreparedStatement {
  return db
    .prepare(
      'SELECT id, name, img, review, location, status, version, created_at, updated_at FROM reviews WHERE user_id = ?1',
    )
    .bind(userId);
}

export interface SavedReviewRow {
  id: string;
  status: ReviewStatus;
  /** 1 when this statement created the review. */
  created: number;
  /** 1 when it created or changed it (a change waits for approval again). */
  changed: number;
}

/**
 * Writes or rewrites a patient's one review (the unique index reviews_one_per_patient keeps it to
 * one, whatever the timing) with their account's photo, only once they have had an appointment by
 * `now` (checked in the same statement). A new or changed review waits for approval; the same text
 * again changes nothing. RETURNING a SavedReviewRow, or no row without a past appointment.
 */
export function saveReviewOf(
  env: Env,
  review: { id: string; userId: string; name: string; review: string; location: string },
  now: Date,
): D1PreparedStatement {
  const changed = `reviews.name IS NOT excluded.name OR reviews.img IS NOT excluded.img
    OR reviews.review IS NOT excluded.review OR reviews.location IS NOT excluded.location`;
  return env.DB.prepare(
    `INSERT INTO reviews (id, user_id, name, img, review, location, status, created_at, updated_at)
     SELECT ?5, ?1, ?6, coalesce((SELECT photo_url FROM users WHERE id = ?1), ''), ?7, ?8, 'pending', ?4, ?4
     WHERE ${HAS_PAST_APPOINTMENT}
     ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET
       name = excluded.name, img = excluded.img, review = excluded.review, location = excluded.location,
       status = CASE WHEN ${changed} THEN 'pending' ELSE status END,
       version = CASE WHEN ${changed} THEN version + 1 ELSE version END,
       updated_at = CASE WHEN ${changed} THEN excluded.updated_at ELSE updated_at END
     RETURNING id, status, id = ?5 AS created, updated_at = ?4 AS changed`,
  ).bind(...pastAppointmentParams(env, review.userId, now), review.id, review.name, review.review, review.location);
}

/** Every review, or those with one status, with their author's email: pending first, then approved, then hidden. */
export async function reviewsForModeration(db: D1Database, status: ReviewStatus | null): Promise<QueuedReview[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.name, r.img, r.review, r.location, r.status, r.version, r.created_at, r.updated_at, u.email
       FROM reviews r LEFT JOIN users u ON u.id = r.user_id
       WHERE ?1 IS NULL OR r.status = ?1
       ORDER BY CASE r.status WHEN 'pending' THEN 0 WHEN 'approved' THEN 1 ELSE 2 END, r.updated_at DESC, r.id`,
    )
    .bind(status)
    .all<ModeratedReviewRow & { email: string | null }>();
  return results.map((row) => ({ ...toModeratedReview(row), email: row.email }));
}

/** Sets a review's status if it is still at `version` (the one the admin read); RETURNING its author's name. */
export function setReviewStatus(
  db: D1Database,
  id: string,
  status: ReviewStatus,
  version: number,
): D1PreparedStatement {
  return db
    .prepare('UPDATE reviews SET status = ?2 WHERE id = ?1 AND version = ?3 RETURNING name')
    .bind(id, status, version);
}

/**
 * For the audit trail, read in the moderation batch BEFORE setReviewStatus: whether the review at
 * `version` is about to move to `status` (`moves`), and its author's name and status then.
 */
export function reviewMove(id: string, status: ReviewStatus, version: number): { moves: Sql; name: Sql; status: Sql } {
  const field =
    (column: 'name' | 'status'): Sql =>
    (param) =>
      `(SELECT ${column} FROM reviews WHERE id = ${param(id)})`;
  return {
    moves: (param) =>
      `EXISTS (SELECT 1 FROM reviews WHERE id = ${param(id)} AND version = ${param(version)} AND status != ${param(status)})`,
    name: field('name'),
    status: field('status'),
  };
}

export async function reviewExists(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM reviews WHERE id = ?1').bind(id).first()) !== null;
}

/** Deletes a patient's reviews (their record is erased: their words and photo go with it). */
export function deleteReviewsOf(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM reviews WHERE user_id = ?1').bind(userId);
}
