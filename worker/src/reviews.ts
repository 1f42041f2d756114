import {
  Moderation,
  ModerationQuery,
  NewReview,
  type ModeratedReview,
  type OwnReview,
  type QueuedReview,
  type Review,
  type ReviewModerated,
  type ReviewSaved,
  type ReviewStatus,
} from '../../contract/reviews.ts';
import { requireAdmin, requireUser, requireVerifiedUser } from './auth.ts';
import type { Env } from './env.ts';
import { HAS_PAST_APPOINTMENT, pastAppointmentParams, pastAppointmentQuery } from './data/bookings.ts';
import { HttpError, json, readJson, readQuery } from './http.ts';

type Params = { params: Record<string, string> };

interface ReviewRow {
  id: string;
  name: string;
  img: string;
  review: string;
  location: string;
}

interface OwnReviewRow extends ReviewRow {
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

const toOwnReview = (row: OwnReviewRow): ModeratedReview => ({
  ...toReview(row),
  status: row.status,
  version: row.version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const NO_PAST_APPOINTMENT = 'You can write a review after your first appointment at the clinic';

/** GET /api/reviews: the approved reviews, newest first, for the home page testimonials. */
export async function listReviews(_request: Request, env: Env): Promise<Response> {
  const { results } = await env.DB.prepare(
    "SELECT id, name, img, review, location FROM reviews WHERE status = 'approved' ORDER BY created_at DESC, id LIMIT 30",
  ).all<ReviewRow>();
  return json(results.map(toReview));
}

/** GET /api/reviews/mine: whether the signed-in patient may write a review, and theirs with its status. */
export async function getOwnReview(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const [eligible, own] = await env.DB.batch<Record<string, unknown>>([
    pastAppointmentQuery(env, user.id, new Date()),
    env.DB.prepare(
      'SELECT id, name, img, review, location, status, version, created_at, updated_at FROM reviews WHERE user_id = ?1',
    ).bind(user.id),
  ]);
  const review = own?.results[0] as OwnReviewRow | undefined;
  return json({ canReview: eligible?.results[0]?.yes === 1, review: review ? toOwnReview(review) : null } satisfies OwnReview);
}

/**
 * POST /api/reviews: writes or rewrites the signed-in patient's one review, once they have had an
 * appointment. Name and photo are the account's. A new or changed review waits for an admin's
 * approval; posting the same text again changes nothing. The unique index keeps it to one per
 * patient whatever the timing, and the past-appointment check is part of the same statement.
 */
export async function saveReview(request: Request, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  const body = await readJson(request, NewReview);
  const now = new Date();
  const changed = `reviews.name IS NOT excluded.name OR reviews.img IS NOT excluded.img
    OR reviews.review IS NOT excluded.review OR reviews.location IS NOT excluded.location`;
  const saved = await env.DB.prepare(
    `INSERT INTO reviews (id, user_id, name, img, review, location, status, created_at, updated_at)
     SELECT ?5, ?1, ?6, coalesce((SELECT photo_url FROM users WHERE id = ?1), ''), ?7, ?8, 'pending', ?4, ?4
     WHERE ${HAS_PAST_APPOINTMENT}
     ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET
       name = excluded.name, img = excluded.img, review = excluded.review, location = excluded.location,
       status = CASE WHEN ${changed} THEN 'pending' ELSE status END,
       version = CASE WHEN ${changed} THEN version + 1 ELSE version END,
       updated_at = CASE WHEN ${changed} THEN excluded.updated_at ELSE updated_at END
     RETURNING id, status, id = ?5 AS created, updated_at = ?4 AS changed`,
  )
    .bind(...pastAppointmentParams(env, user.id, now), crypto.randomUUID(), user.name, body.review, body.location)
    .first<{ id: string; status: ReviewStatus; created: number; changed: number }>();
  if (!saved) throw new HttpError(403, NO_PAST_APPOINTMENT);
  if (saved.created) {
    return json({ acknowledged: true, insertedId: saved.id, status: saved.status, message: AWAITS_APPROVAL } satisfies ReviewSaved, 201);
  }
  return json({
    acknowledged: true,
    modifiedCount: saved.changed,
    _id: saved.id,
    status: saved.status,
    message: saved.changed ? AWAITS_APPROVAL : 'Your review is unchanged',
  } satisfies ReviewSaved);
}

const AWAITS_APPROVAL = 'Thank you! Your review will show on the home page once the clinic approves it';

/** GET /api/reviews/moderation?status= (admin): every review, or those with one status; pending first. */
export async function listReviewsForModeration(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const status = readQuery(request, ModerationQuery).status ?? null;
  const { results } = await env.DB.prepare(
    `SELECT r.id, r.name, r.img, r.review, r.location, r.status, r.version, r.created_at, r.updated_at, u.email
     FROM reviews r LEFT JOIN users u ON u.id = r.user_id
     WHERE ?1 IS NULL OR r.status = ?1
     ORDER BY CASE r.status WHEN 'pending' THEN 0 WHEN 'approved' THEN 1 ELSE 2 END, r.updated_at DESC, r.id`,
  )
    .bind(status)
    .all<OwnReviewRow & { email: string | null }>();
  return json(results.map((row): QueuedReview => ({ ...toOwnReview(row), email: row.email })));
}

/**
 * PUT /api/reviews/:id/status (admin): approves or hides a review. `version` is the one the admin
 * read: a review edited since then is not approved unseen (409).
 */
export async function moderateReview(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const id = request.params.id ?? '';
  const body = await readJson(request, Moderation);
  const row = await env.DB.prepare('UPDATE reviews SET status = ?2 WHERE id = ?1 AND version = ?3 RETURNING name')
    .bind(id, body.status, body.version)
    .first<{ name: string }>();
  if (row) return json({ acknowledged: true, modifiedCount: 1, message: `The review by ${row.name} is ${body.status}` } satisfies ReviewModerated);
  const exists = await env.DB.prepare('SELECT 1 FROM reviews WHERE id = ?1').bind(id).first();
  if (!exists) throw new HttpError(404, 'No such review');
  throw new HttpError(409, 'This review was edited after you loaded it; read the new text before you decide');
}
