import type { BookingCancelled } from '../../../../../contract/bookings.ts';
import { client } from '../../../lib/client.ts';

/**
 * DELETE /api/bookings/:id: cancels a booking that has not started and frees its slot (409 otherwise); a paid one
 * (outside the clinic's cancellation window) is refunded, and the answer's `refund` says where the refund stands.
 */
export function cancelBooking(id: string): Promise<BookingCancelled> {
  return client('DELETE /bookings/:id', { params: { id } });
}
