import type { Booking, BookingCreated, NewBooking } from '../../../../../contract/bookings.ts';
import { client } from '../../../lib/client.ts';
import { logUnexpected } from '../../../lib/error-text.ts';

export type { Booking, NewBooking };

/** POST /api/bookings (signed in). A refusal (409 slot taken, 409 one per day, 400 …) throws ApiError with the server's message. */
export function createBooking(booking: NewBooking): Promise<BookingCreated> {
  return client('POST /bookings', { body: booking });
}

/**
 * GET /api/bookings/:id of a booking just made: the doctor the server picked and its length. Null
 * when it cannot be read (the booking is made all the same).
 */
async function readBooked(id: string): Promise<Booking | null> {
  try {
    return await client('GET /bookings/:id', { params: { id } });
  } catch (error) {
    logUnexpected(error);
    return null;
  }
}

/**
 * Books; answers the server's answer and, once booked, the booking as stored (whom the server
 * chose; null if it could not be read).
 */
export async function book(booking: NewBooking): Promise<{ result: BookingCreated; booking: Booking | null }> {
  const result = await createBooking(booking);
  if (!result.acknowledged) return { result, booking: null };
  return { result, booking: await readBooked(result.insertedId) };
}
