import { ACCOUNT_OF, type CalendarColumns, heldPastItsEnd } from './bookings.ts';

export type FeedOwner = { type: 'patient' | 'doctor'; id: string };

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A new live feed for `owner` under `tokenHash`, the one before revoked: one batch. */
export function rotateFeed(db: D1Database, owner: FeedOwner, tokenHash: string): D1PreparedStatement[] {
  return [
    revokeFeed(db, owner),
    db
      .prepare('INSERT INTO calendar_feeds (token_hash, owner_type, owner_id) VALUES (?1, ?2, ?3)')
      .bind(tokenHash, owner.type, owner.id),
  ];
}

/** Ends `owner`'s live feed, if any. */
export function revokeFeed(db: D1Database, owner: FeedOwner): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE calendar_feeds SET revoked_at = ${NOW} WHERE owner_type = ?1 AND owner_id = ?2 AND revoked_at IS NULL`,
    )
    .bind(owner.type, owner.id);
}

/** Whose live feed `tokenHash` is, or null (unknown or revoked). */
export async function feedOwner(db: D1Database, tokenHash: string): Promise<FeedOwner | null> {
  const row = await db
    .prepare('SELECT owner_type, owner_id FROM calendar_feeds WHERE token_hash = ?1 AND revoked_at IS NULL')
    .bind(tokenHash)
    .first<{ owner_type: 'patient' | 'doctor'; owner_id: string }>();
  return row && { type: row.owner_type, id: row.owner_id };
}

/** An appointment of a feed: its calendar columns, when its row was written, and whether it is off. */
export type FeedRow = CalendarColumns & {
  created_at: string;
  /** 1 when it no longer takes place: cancelled, or released for non-payment. */
  cancelled: number;
};

/**
 * The appointments of `owner`'s feed from `from` (ISO date) on: a patient's account's (theirs and
 * their family's), or a doctor's; each appointment once, as it is now (a moved booking's old rows
 * are left out: its latest row carries the same calendar UID with a higher version).
 */
export async function feedAppointments(db: D1Database, owner: FeedOwner, from: string, now: Date): Promise<FeedRow[]> {
  const whose = owner.type === 'doctor' ? 'b.doctor_id = ?1' : `${ACCOUNT_OF('b')} = ?1`;
  const { results } = await db
    .prepare(
      `SELECT coalesce(b.calendar_uid, b.id) AS calendar_uid, b.version, b.treatment, b.appointment_date,
         b.start_minute, b.duration_minutes, b.slot, d.name AS doctor_name, b.patient_name, b.created_at,
         (b.status = 'cancelled' OR (b.status = 'active' AND ${heldPastItsEnd('b', '?3')})) AS cancelled
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE ${whose} AND b.appointment_date >= ?2 AND b.status != 'moved'
       ORDER BY b.appointment_date, b.start_minute, b.id`,
    )
    .bind(owner.id, from, now.toISOString())
    .all<FeedRow>();
  return results;
}
