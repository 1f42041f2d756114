import type { BookingCancelled } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';

/** DELETE /api/bookings/:id: cancels an unpaid booking that has not started and frees its slot (409 otherwise). */
export function cancelBooking(id: string): Promise<BookingCancelled> {
  return api<BookingCancelled>(`/bookings/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
