import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { BookingCreated, NewBooking } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';
import { appointmentOptionsKey, isMyBookingsKey } from '../../../lib/cache-keys.ts';

export type { NewBooking };

/** POST /api/bookings (signed in). A refusal (409 slot taken, 409 one per day, 400 …) throws ApiError with the server's message. */
export function createBooking(booking: NewBooking): Promise<BookingCreated> {
  return api<BookingCreated>('/bookings', { method: 'POST', body: JSON.stringify(booking) });
}

/**
 * Books, then refreshes what booking changes: that day's free slots, after a refusal too (the slot
 * may just have been taken), and, once booked, the patient's bookings.
 */
export function useCreateBooking() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (booking: NewBooking): Promise<BookingCreated> => {
      const freeSlots = appointmentOptionsKey(booking.appointmentDate);
      let result: BookingCreated;
      try {
        result = await createBooking(booking);
      } catch (error) {
        void mutate(freeSlots);
        throw error;
      }
      void mutate(freeSlots);
      if (result.acknowledged) void mutate(isMyBookingsKey);
      return result;
    },
    [mutate],
  );
}
