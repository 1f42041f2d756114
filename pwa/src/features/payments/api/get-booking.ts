import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { bookingKey } from '../../../lib/cache-keys.ts';

/** A booking as GET /api/bookings/:id answers it (docs/product.md#entities); `price` in dollars, `appointmentDate` as PP. */
export type Booking = {
  _id: string;
  treatment: string;
  appointmentDate: string;
  date: string;
  slot: string;
  startsAt: string;
  patientName: string;
  patient: string;
  email: string;
  phone: string;
  price: number;
  paid: boolean;
};

/** GET /api/bookings/:id (owner or admin): what the payment page loads before it shows. */
export function useBooking(id: string) {
  return useSWR<Booking>(bookingKey(id), apiFetcher<Booking>);
}
