import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import { offersStrandedWhere, type ScheduleChange } from './strand.ts';

/** A patient waits once for the same treatment and dates (index waitlist_one_per_patient). */
export const ONE_ENTRY_PER_WAIT: UniqueConstraint = {
  table: 'waitlist',
  columns: ['user_id', 'treatment_id', 'from_date', 'to_date'],
};

export interface WaitlistEntryRow {
  id: string;
  user_id: string;
  treatment_id: string;
  treatment: string | null;
  from_date: string;
  to_date: string;
  created_at: string;
  offer_id: string | null;
  offer_day: string | null;
  offer_slot: string | null;
  offer_expires_at: string | null;
}

/** How many times a patient may wait for at once. */
export const MAX_WAITING_ENTRIES = 5;

/**
 * Puts a patient in line, only while they wait for fewer than `max` times whose dates have not all
 * passed (?7 today): counted in the statement, so a patient firing many requests at once still ends
 * with at most the limit. 0 changes when at the limit.
 */
export function insertEntry(
  db: D1Database,
  entry: { id: string; userId: string; treatmentId: string; from: string; to: string; now: Date; today: string },
  max = MAX_WAITING_ENTRIES,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO waitlist (id, user_id, treatment_id, from_date, to_date, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT count(*) FROM waitlist w WHERE w.user_id = ?2 AND w.status = 'waiting' AND w.to_date >= ?7) < ?8`,
    )
    .bind(entry.id, entry.userId, entry.treatmentId, entry.from, entry.to, entry.now.toISOString(), entry.today, max);
}

/** A patient's waiting entries whose dates have not all passed (?2 today), with the offer open for each at ?3 (now). */
export async function entriesOf(db: D1Database, userId: string, today: string, now: Date): Promise<WaitlistEntryRow[]> {
  const { results } = await db
    .prepare(
      `SELECT w.id, w.user_id, w.treatment_id, t.name AS treatment, w.from_date, w.to_date, w.created_at,
         o.id AS offer_id, o.day AS offer_day, o.slot AS offer_slot, o.expires_at AS offer_expires_at
       FROM waitlist w
         LEFT JOIN treatments t ON t.id = w.treatment_id
         LEFT JOIN waitlist_offers o ON o.entry_id = w.id AND o.status = 'open' AND o.expires_at > ?3
       WHERE w.user_id = ?1 AND w.status = 'waiting' AND w.to_date >= ?2
       ORDER BY w.created_at, w.id`,
    )
    .bind(userId, today, now.toISOString())
    .all<WaitlistEntryRow>();
  return results;
}

/** Takes an entry off the waitlist ('left'): only the patient's own, while waiting (the engine withdraws its offer in the batch). */
export function leaveEntry(db: D1Database, id: string, userId: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE waitlist SET status = 'left' WHERE id = ?1 AND user_id = ?2 AND status = 'waiting'`)
    .bind(id, userId);
}

/** The entries in line (waiting, oldest first) that could use a time from ?1 (today) on and have no offer open at ?2 (now). */
export async function entriesInLine(db: D1Database, today: string, now: Date, limit: number) {
  const { results } = await db
    .prepare(
      `SELECT w.id, w.user_id, w.treatment_id, w.from_date, w.to_date FROM waitlist w
       WHERE w.status = 'waiting' AND w.to_date >= ?1
         AND NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.entry_id = w.id AND o.status = 'open' AND o.expires_at > ?2)
       ORDER BY w.created_at, w.id LIMIT ?3`,
    )
    .bind(today, now.toISOString(), limit)
    .all<{ id: string; user_id: string; treatment_id: string; from_date: string; to_date: string }>();
  return results;
}

/** The times already offered to these entries (declined or let expire): never offered to them again. */
export async function pastOffers(db: D1Database, entryIds: string[]): Promise<Set<string>> {
  if (entryIds.length === 0) return new Set();
  const { results } = await db
    .prepare(
      'SELECT entry_id, day, start_minute FROM waitlist_offers WHERE entry_id IN (SELECT value FROM json_each(?1))',
    )
    .bind(JSON.stringify(entryIds))
    .all<{ entry_id: string; day: string; start_minute: number }>();
  return new Set(results.map((r) => offeredKey(r.entry_id, r.day, r.start_minute)));
}

export const offeredKey = (entryId: string, day: string, start: number) => `${entryId} ${day} ${start}`;

export interface OfferRow {
  id: string;
  entry_id: string;
  user_id: string;
  treatment_id: string;
  treatment: string | null;
  price_cents: number | null;
  day: string;
  start_minute: number;
  duration_minutes: number;
  slot: string;
  doctor_id: string;
  chair_id: string;
  doctor_name: string | null;
  expires_at: string;
  status: 'open' | 'accepted' | 'declined' | 'expired' | 'withdrawn';
  booking_id: string | null;
}

export function offerById(db: D1Database, id: string): Promise<OfferRow | null> {
  return db
    .prepare(
      `SELECT o.id, o.entry_id, w.user_id, o.treatment_id, t.name AS treatment, t.price_cents, o.day, o.start_minute,
         o.duration_minutes, o.slot, o.doctor_id, o.chair_id, d.name AS doctor_name, o.expires_at, o.status, o.booking_id
       FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id
         LEFT JOIN treatments t ON t.id = o.treatment_id LEFT JOIN doctors d ON d.id = o.doctor_id
       WHERE o.id = ?1`,
    )
    .bind(id)
    .first<OfferRow>();
}

export interface WithdrawnOfferRow {
  id: string;
  treatment: string | null;
  day: string;
  slot: string;
  patient_name: string;
  email: string;
}

/** The open offers a change withdraws (read in its batch, before the withdrawal). */
export function withdrawnOffersQuery(
  db: D1Database,
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
): D1PreparedStatement {
  const { where, params } = offersStrandedWhere(change, clock);
  return db
    .prepare(
      `SELECT o.id, t.name AS treatment, o.day, o.slot, u.name AS patient_name, u.email
     FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id JOIN users u ON u.id = w.user_id
       LEFT JOIN treatments t ON t.id = o.treatment_id
     WHERE ${where}
     ORDER BY o.day, o.start_minute`,
    )
    .bind(...params);
}
