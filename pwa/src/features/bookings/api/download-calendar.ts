import { client } from '../../../lib/client.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** GET /api/bookings/:id/calendar.ics (owner only): the booking as an iCalendar file. */
export function fetchBookingCalendar(id: string): Promise<Blob> {
  return client('GET /bookings/:id/calendar.ics', { params: { id }, headers: { Accept: 'text/calendar' } });
}

/** Downloads a booking as appointment-{yyyy-MM-dd}.ics. */
export async function downloadBookingCalendar(booking: { _id: string; date: string }): Promise<void> {
  saveFile(await fetchBookingCalendar(booking._id), `appointment-${booking.date}.ics`);
}
