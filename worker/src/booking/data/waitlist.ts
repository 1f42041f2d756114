import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

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

export function insertEntry(
  db: D1Database,
  entry: { id: string; userId: string; treatmentId: string; from: string; to: string; now: Date },
): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO waitlist (id, user_id, treatment_id, from_date, to_date, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
    )
    .bind(entry.id, entry.userId, entry.treatmentId, entry.from, entry.to, entry.now.toISOString());
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

/**
 * Takes an entry off the waitlist ('left'): only the patient's own, while waiting. Put
 * withdrawOffersOf after it in its batch.
 */
export function leaveEntry(db: D1Database, id: string, userId: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE waitlist SET status = 'left' WHERE id = ?1 AND user_id = ?2 AND status = 'waiting'`)
    .bind(id, userId);
}

/** Withdraws the open offer of an entry that is no longer waiting, and frees its held time. */
export function withdrawOffersOf(db: D1Database, entryId: string): D1PreparedStatement[] {
  const open = `SELECT o.id FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id
    WHERE o.entry_id = ?1 AND o.status = 'open' AND w.status != 'waiting'`;
  return [
    db.prepare(`DELETE FROM claims WHERE hold_id IN (${open})`).bind(entryId),
    db.prepare(`UPDATE waitlist_offers SET status = 'withdrawn' WHERE id IN (${open})`).bind(entryId),
  ];
}

/** The entries in line (waiting, oldest first) that could use a time from ?1 (today) on and have no offer open at ?2 (now). */
export async function entriesInLine(db: D1Database, today: string, now: Date, limit: number) {
  const { results } = await db
    .prepare(
      `SELECT w.id, w.treatment_id, w.from_date, w.to_date FROM waitlist w
       WHERE w.status = 'waiting' AND w.to_date >= ?1
         AND NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.entry_id = w.id AND o.status = 'open' AND o.expires_at > ?2)
       ORDER BY w.created_at, w.id LIMIT ?3`,
    )
    .bind(today, now.toISOString(), limit)
    .all<{ id: string; treatment_id: string; from_date: string; to_date: string }>();
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

/**
 * Marks the open offers that expired by `now` as 'expired' and frees their held time (expired
 * holds already no longer count): the next in line can get the time.
 */
export function expireOffers(db: D1Database, now: Date): D1PreparedStatement[] {
  const lapsed = `SELECT id FROM waitlist_offers WHERE status = 'open' AND expires_at <= ?1`;
  return [
    db.prepare(`DELETE FROM claims WHERE hold_id IN (${lapsed})`).bind(now.toISOString()),
    db.prepare(`UPDATE waitlist_offers SET status = 'expired' WHERE id IN (${lapsed})`).bind(now.toISOString()),
  ];
}

export interface NewOffer {
  id: string;
  entryId: string;
  treatmentId: string;
  day: string;
  startMinute: number;
  durationMinutes: number;
  slot: string;
  doctorId: string;
  chairId: string;
  expiresAt: Date;
  now: Date;
}

/**
 * An offer to an entry still waiting, and the claims that hold its doctor's and chair's cells
 * until it expires: a cell claimed meanwhile fails the batch (ONE_CLAIM_PER_CELL), a second open
 * offer for the entry fails it on waitlist_one_open_offer.
 */
export function insertOffer(
  db: D1Database,
  offer: NewOffer,
  cells: { resources: readonly string[]; firstCell: number; lastCell: number },
): D1PreparedStatement[] {
  const cellList = Array.from({ length: cells.lastCell - cells.firstCell + 1 }, (_, i) => cells.firstCell + i);
  return [
    db
      .prepare(
        `INSERT INTO waitlist_offers (id, entry_id, treatment_id, day, start_minute, duration_minutes, slot, doctor_id,
           chair_id, expires_at, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
         WHERE EXISTS (SELECT 1 FROM waitlist WHERE id = ?2 AND status = 'waiting')`,
      )
      .bind(
        offer.id,
        offer.entryId,
        offer.treatmentId,
        offer.day,
        offer.startMinute,
        offer.durationMinutes,
        offer.slot,
        offer.doctorId,
        offer.chairId,
        offer.expiresAt.toISOString(),
        offer.now.toISOString(),
      ),
    db
      .prepare(
        `INSERT INTO claims (day, resource, cell, hold_id, expires_at)
         SELECT ?2, r.value, c.value, ?1, ?5 FROM json_each(?3) r, json_each(?4) c
         WHERE EXISTS (SELECT 1 FROM waitlist_offers WHERE id = ?1)`,
      )
      .bind(
        offer.id,
        offer.day,
        JSON.stringify(cells.resources),
        JSON.stringify(cellList),
        offer.expiresAt.toISOString(),
      ),
  ];
}

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

/**
 * Accepting, in the booking's batch after its insert (made only while the offer is open and not
 * expired: insertBooking's `offerId`): the offer is 'accepted' with its booking, its held time
 * given up (before the booking claims the same cells), and the entry leaves the line ('booked').
 * Without the booking (refused, or another accept won) these change nothing.
 */
export function acceptOffer(db: D1Database, offerId: string, bookingId: string): D1PreparedStatement[] {
  const booked = 'EXISTS (SELECT 1 FROM bookings WHERE id = ?2)';
  return [
    db
      .prepare(
        `UPDATE waitlist_offers SET status = 'accepted', booking_id = ?2 WHERE id = ?1 AND status = 'open' AND ${booked}`,
      )
      .bind(offerId, bookingId),
    db.prepare(`DELETE FROM claims WHERE hold_id = ?1 AND ${booked}`).bind(offerId, bookingId),
    db
      .prepare(
        `UPDATE waitlist SET status = 'booked'
         WHERE id = (SELECT entry_id FROM waitlist_offers WHERE id = ?1 AND booking_id = ?2) AND ${booked}`,
      )
      .bind(offerId, bookingId),
  ];
}

/** Declines an open offer (its patient's) and frees its held time. */
export function declineOffer(db: D1Database, offerId: string): D1PreparedStatement[] {
  return [
    db.prepare(`UPDATE waitlist_offers SET status = 'declined' WHERE id = ?1 AND status = 'open'`).bind(offerId),
    db
      .prepare(
        `DELETE FROM claims WHERE hold_id = ?1 AND EXISTS (SELECT 1 FROM waitlist_offers WHERE id = ?1 AND status = 'declined')`,
      )
      .bind(offerId),
  ];
}
