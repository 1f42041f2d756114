import { liveBooking } from './bookings.ts';

/** The claim key of a doctor, a chair and a patient. */
export const doctorResource = (id: string) => `doctor:${id}`;
export const chairResource = (id: string) => `chair:${id}`;
export const patientResource = (id: string) => `patient:${id}`;

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
