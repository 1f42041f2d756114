import type { BookingCreated, NewBooking } from '../../../../../contract/bookings.ts';
import { api } from '../../../lib/api.ts';

export type { NewBooking };

/** POST /api/bookings (signed in). A refusal (409 slot taken, 409 one per day, 400 …) throws ApiError with the server's message. */
export function createBooking(booking: NewBooking): Promise<BookingCreated> {
  return api<BookingCreated>('/bookings', { method: 'POST', body: JSON.stringify(booking) });
}
