import { api } from '../../../lib/api.ts';

/** GET /api/bookings/:id/calendar.ics (owner only): the booking as an iCalendar file. */
export function fetchBookingCalendar(id: string): Promise<Blob> {
  return api<Blob>(`/bookings/${encodeURIComponent(id)}/calendar.ics`, { headers: { Accept: 'text/calendar' } });
}

/** Hands a file to the browser's downloads: a temporary <a download> on an object URL. */
export function saveFile(file: Blob, fileName: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start reading the file only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a booking as appointment-{yyyy-MM-dd}.ics. */
export async function downloadBookingCalendar(booking: { _id: string; date: string }): Promise<void> {
  saveFile(await fetchBookingCalendar(booking._id), `appointment-${booking.date}.ics`);
}
