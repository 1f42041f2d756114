import { api } from '../../../lib/api.ts';

/** SPEC §7 POST /bookings payload. The server takes name, email and price from its own records. */
export type NewBooking = {
  treatment: string;
  appointmentDate: string;
  slot: string;
  patientName: string;
  email: string;
  phone: string;
  price: number;
};

export type BookingResult = { acknowledged: boolean; insertedId?: string; message: string };

/** POST /api/bookings (signed in). A refusal (409 slot taken, 409 one per day, 400 …) throws ApiError with the server's message. */
export function createBooking(booking: NewBooking): Promise<BookingResult> {
  return api<BookingResult>('/bookings', { method: 'POST', body: JSON.stringify(booking) });
}
