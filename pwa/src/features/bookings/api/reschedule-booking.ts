import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Reschedule, Rescheduled } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';
import { appointmentOptionsKey, isMyBookingsKey } from '../../../lib/cache-keys.ts';

/**
 * POST /api/bookings/:id/reschedule, then refreshes what moving changes: the free times of both
 * days and the patient's bookings (also after a refusal: the booking may have changed meanwhile).
 */
export function useRescheduleBooking() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (booking: { _id: string; appointmentDate: string }, move: Reschedule): Promise<Rescheduled> => {
      try {
        return await api<Rescheduled>(`/bookings/${encodeURIComponent(booking._id)}/reschedule`, {
          method: 'POST',
          body: JSON.stringify(move),
        });
      } finally {
        void mutate(appointmentOptionsKey(booking.appointmentDate));
        void mutate(appointmentOptionsKey(move.appointmentDate));
        await mutate(isMyBookingsKey);
      }
    },
    [mutate],
  );
}
