import useSWR from 'swr';
import { api } from '../../../lib/api.ts';

/** SPEC §3 booking, as GET /api/bookings answers it. */
export type Booking = {
  _id: string;
  treatment: string;
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: string;
  /** ISO date, e.g. "2026-11-21". */
  date: string;
  slot: string;
  /** When the appointment starts (ISO, UTC). */
  startsAt: string;
  patientName: string;
  email: string;
  phone: string;
  price: number;
  paid: boolean;
};

export const MY_BOOKINGS_KEY = '/bookings';
export type MyBookingsKey = readonly [typeof MY_BOOKINGS_KEY, string];

/**
 * GET /api/bookings?email= (signed in): the patient's bookings by date and time.
 * The one place the list is fetched, so an offline copy can be kept and served from here.
 */
export function fetchMyBookings(email: string): Promise<Booking[]> {
  return api<Booking[]>(`/bookings?email=${encodeURIComponent(email)}`);
}

/** The signed-in patient's bookings, cached under ['/bookings', email]; no request without an email. */
export function useMyBookings(email: string | null | undefined) {
  return useSWR<Booking[], unknown, MyBookingsKey | null>(
    email ? [MY_BOOKINGS_KEY, email] : null,
    ([, address]) => fetchMyBookings(address),
  );
}
