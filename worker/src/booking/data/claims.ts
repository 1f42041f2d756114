import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import { liveBooking } from './bookings.ts';

/**
 * One 15-minute cell of a day on one resource is claimed once (the primary key of claims): two
 * bookings can never share a doctor or a chair for even one cell.
 */
export const ONE_CLAIM_PER_CELL: UniqueConstraint = { table: 'claims', columns: ['day', 'resource', 'cell'] };

/** The claim key of a doctor or a chair. */
export const doctorResource = (id: string) => `doctor:${id}`;
export const chairResource = (id: string) => `chair:${id}`;

export interface ClaimRow {
  resource: string;
  cell: number;
  booking_id: string | null;
}

/**
 * The claims of a day that still count at `now` (ClaimRow): a booking's, unless it is unpaid and
 * its hold ended; a timed hold's, until it expires. Read by the day's primary-key range.
 */
export function liveClaimsOn(db: D1Database, isoDate: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT c.resource, c.cell, c.booking_id FROM claims c LEFT JOIN bookings b ON b.id = c.booking_id
       WHERE c.day = ?1 AND (c.booking_id IS NULL OR ${liveBooking('b', '?2')}) AND (c.expires_at IS NULL OR c.expires_at > ?2)`,
    )
    .bind(isoDate, now.toISOString());
}

/**
 * Deletes the claims of a day that no longer count for anything: a booking's that is no longer on
 * (cancelled or moved: put it after the statements that release bookings; an attended or missed
 * booking keeps its time), a timed hold's that expired by `now`.
 */
export function dropDeadClaims(db: D1Database, isoDate: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM claims WHERE day = ?1 AND (
         (booking_id IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM bookings b WHERE b.id = claims.booking_id AND b.status IN ('active', 'attended', 'no_show')))
         OR expires_at <= ?2)`,
    )
    .bind(isoDate, now.toISOString());
}

/**
 * Claims cells `firstCell`..`lastCell` of a day on each resource for a booking, only when that
 * booking exists (its insert in the same batch may have been refused). A cell already claimed
 * fails the batch on ONE_CLAIM_PER_CELL.
 */
export function insertClaims(
  db: D1Database,
  claim: { bookingId: string; day: string; resources: readonly string[]; firstCell: number; lastCell: number },
): D1PreparedStatement {
  const cells = Array.from({ length: claim.lastCell - claim.firstCell + 1 }, (_, i) => claim.firstCell + i);
  return db
    .prepare(
      `INSERT INTO claims (day, resource, cell, booking_id)
       SELECT ?2, r.value, c.value, ?1 FROM json_each(?3) r, json_each(?4) c
       WHERE EXISTS (SELECT 1 FROM bookings WHERE id = ?1)`,
    )
    .bind(claim.bookingId, claim.day, JSON.stringify(claim.resources), JSON.stringify(cells));
}

/** Frees a booking's claims once it is no longer active (put it after the statement that cancels it). */
export function freeClaimsOfEndedBooking(db: D1Database, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM claims WHERE booking_id = ?1
         AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = ?1 AND b.status = 'active')`,
    )
    .bind(bookingId);
}
