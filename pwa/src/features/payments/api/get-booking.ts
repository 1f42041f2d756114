import useSWR from 'swr';
import type { Booking } from '../../../../../contract/bookings.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { bookingKey } from '../../../lib/cache-keys.ts';

export type { Booking };

/** GET /api/bookings/:id (owner or admin): what the payment page loads before it shows. */
export function useBooking(id: string) {
  return useSWR<Booking>(bookingKey(id), apiFetcher<Booking>);
}
