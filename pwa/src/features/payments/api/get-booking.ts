import useSWR from 'swr';
import type { Booking } from '../../../../../contract/bookings.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { Booking };

export const bookingKey = (id: string) => `/bookings/${encodeURIComponent(id)}`;

/** GET /api/bookings/:id (owner or admin): what the payment page loads before it shows. */
export function useBooking(id: string) {
  return useSWR<Booking>(bookingKey(id), apiFetcher<Booking>);
}
