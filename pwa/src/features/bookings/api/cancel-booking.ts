import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { BookingCancelled } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';
import { appointmentOptionsKey, isMyBookingsKey, receiptKey } from '../../../lib/cache-keys.ts';

/**
 * DELETE /api/bookings/:id: cancels a booking that has not started and frees its slot (409 otherwise); a paid one
 * (outside the clinic's cancellation window) is refunded, and the answer's `refund` says where the refund stands.
 */
export function cancelBooking(id: string): Promise<BookingCancelled> {
  return api<BookingCancelled>(`/bookings/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Cancels, then refreshes what cancelling changes: the free slots of the booking's day (one is
 * free again), its receipt (a refund) and the patient's bookings, which are reloaded before this resolves. After a refusal the bookings are
 * reloaded too: the booking may have been paid, cancelled or started meanwhile.
 */
export function useCancelBooking() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (booking: { _id: string; appointmentDate: string }): Promise<BookingCancelled> => {
      let result: BookingCancelled;
      try {
        result = await cancelBooking(booking._id);
      } catch (error) {
        void mutate(isMyBookingsKey);
        throw error;
      }
      void mutate(appointmentOptionsKey(booking.appointmentDate));
      void mutate(receiptKey(booking._id));
      await mutate(isMyBookingsKey);
      return result;
    },
    [mutate],
  );
}
