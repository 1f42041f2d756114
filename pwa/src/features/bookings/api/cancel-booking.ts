import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { api } from '../../../lib/api.ts';
import { isAppointmentOptionsKey, isMyBookingsKey } from '../../../lib/cache-keys.ts';

export type CancelResult = { acknowledged: boolean; modifiedCount: number; message: string };

/** DELETE /api/bookings/:id: cancels an unpaid booking that has not started and frees its slot (409 otherwise). */
export function cancelBooking(id: string): Promise<CancelResult> {
  return api<CancelResult>(`/bookings/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Cancels, then refreshes what cancelling changes: the free slots (one is free again) and the
 * patient's bookings, which are reloaded before this resolves. After a refusal the bookings are
 * reloaded too: the booking may have been paid, cancelled or started meanwhile.
 */
export function useCancelBooking() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string): Promise<CancelResult> => {
      let result: CancelResult;
      try {
        result = await cancelBooking(id);
      } catch (error) {
        void mutate(isMyBookingsKey);
        throw error;
      }
      void mutate(isAppointmentOptionsKey);
      await mutate(isMyBookingsKey);
      return result;
    },
    [mutate],
  );
}
