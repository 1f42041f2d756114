import type { Reschedule, Rescheduled } from '../../../../../contract/bookings.ts';
import { client } from '../../../lib/client.ts';

/** POST /api/bookings/:id/reschedule: the booking at its new date and start (409 when it changed meanwhile). */
export function rescheduleBooking(booking: { _id: string }, move: Reschedule): Promise<Rescheduled> {
  return client('POST /bookings/:id/reschedule', { params: { id: booking._id }, body: move });
}
