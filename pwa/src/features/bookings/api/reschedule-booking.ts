import type { Reschedule, Rescheduled } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';

/** POST /api/bookings/:id/reschedule: the booking at its new date and start (409 when it changed meanwhile). */
export function rescheduleBooking(booking: { _id: string }, move: Reschedule): Promise<Rescheduled> {
  return api<Rescheduled>(`/bookings/${encodeURIComponent(booking._id)}/reschedule`, {
    method: 'POST',
    body: JSON.stringify(move),
  });
}
