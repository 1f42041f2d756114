// Writes a patient's offline copy of their bookings off the page's main thread: IndexedDB's code (Dexie) and the
// database's opening cost My Appointments 50–100 ms at ×4 CPU right after it appeared (get-my-bookings.ts).
import type { SaveBookingsRequest, SaveBookingsResult } from './get-my-bookings.ts';
import { saveBookings } from './saved-bookings.ts';

addEventListener('message', ({ data }: MessageEvent<SaveBookingsRequest>) => {
  const answer = (result: SaveBookingsResult) => postMessage(result);
  saveBookings(data.email, data.bookings, data.savedAt).then(
    () => answer({ saved: true }),
    (cause: unknown) => answer({ saved: false, reason: String(cause) }),
  );
});
