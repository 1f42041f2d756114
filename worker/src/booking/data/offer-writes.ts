/** The waitlist's writes (only the engine uses them): each offer holds its doctor's, chair's and patient's cells until it expires, is accepted, declined or withdrawn. */
import { offersStrandedWhere, type ScheduleChange } from './strand.ts';
import { type ClaimCells, cellList, type StrandClock } from './writes.ts';

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
 * An offer to an entry still waiting (after its placement check), and the claims that hold its
 * cells until it expires; a second open offer for the entry fails it on ONE_OPEN_OFFER.
 */
export function insertOffer(db: D1Database, offer: NewOffer, claim: ClaimCells): D1PreparedStatement[] {
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
      .bind(offer.id, claim.day, JSON.stringify(claim.resources), cellList(claim), offer.expiresAt.toISOString()),
  ];
}

/**
 * Accepting, in the booking's batch after its insert: the offer is 'accepted' with its booking, its
 * held time given up (before the booking claims the same cells), and the entry leaves the line.
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

/** Closes open offers chosen by `where` (SQL on offer `o`, parameters from ?2 on) with `status`, and frees their held time. */
function closeOffers(
  db: D1Database,
  status: 'declined' | 'expired' | 'withdrawn',
  where: string,
  params: unknown[],
): D1PreparedStatement[] {
  const chosen = `SELECT o.id FROM waitlist_offers o WHERE o.status = 'open' AND (${where})`;
  return [
    db.prepare(`DELETE FROM claims WHERE hold_id IN (${chosen})`).bind(status, ...params),
    db.prepare(`UPDATE waitlist_offers SET status = ?1 WHERE id IN (${chosen})`).bind(status, ...params),
  ];
}

/** Declines an open offer; its held time is freed. The second statement's changes say whether it was open. */
export const declineOffer = (db: D1Database, offerId: string) => closeOffers(db, 'declined', 'o.id = ?2', [offerId]);

/** Marks the open offers that expired by `now` and frees their held time. */
export const expireOffers = (db: D1Database, now: Date) =>
  closeOffers(db, 'expired', 'o.expires_at <= ?2', [now.toISOString()]);

/** Withdraws the open offer of an entry (the patient left the line). */
export const withdrawOffersOfEntry = (db: D1Database, entryId: string) =>
  closeOffers(
    db,
    'withdrawn',
    `o.entry_id = ?2 AND EXISTS (SELECT 1 FROM waitlist w WHERE w.id = ?2 AND w.status != 'waiting')`,
    [entryId],
  );

/** Withdraws the open offers of a patient's entries (their record is erased). */
export const withdrawOffersOfPatient = (db: D1Database, userId: string) =>
  closeOffers(db, 'withdrawn', 'o.entry_id IN (SELECT id FROM waitlist WHERE user_id = ?2)', [userId]);

/**
 * Withdraws the open offers a schedule change invalidates (their time no longer fits, or their
 * doctor, chair or treatment goes), freeing their held time: put it before the change in its batch.
 */
export function withdrawOffersStrandedBy(
  db: D1Database,
  change: ScheduleChange,
  clock: StrandClock,
): D1PreparedStatement[] {
  const { where, params } = offersStrandedWhere(change, clock);
  // offersStrandedWhere numbers its parameters from ?1; closeOffers binds the status first.
  return closeOffers(db, 'withdrawn', shiftParams(where, 1), params);
}

/** Renumbers ?n placeholders by `by`. */
const shiftParams = (sql: string, by: number) => sql.replace(/\?(\d+)/g, (_, n: string) => `?${Number(n) + by}`);
