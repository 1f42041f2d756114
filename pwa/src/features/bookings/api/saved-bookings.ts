import { clinicDb } from '../../../lib/db.ts';

/**
 * A user's bookings as this device last loaded them. Stored as they came from the server: the module
 * that fetched them (get-my-bookings.ts) owns their type.
 */
export type SavedBookingList = { bookings: unknown[]; savedAt: number };

const keyOf = (email: string) => email.trim().toLowerCase();

/** Keeps `bookings` as `email`'s offline copy, replacing the previous one. */
export async function saveBookings(email: string, bookings: unknown[], savedAt = Date.now()): Promise<void> {
  await clinicDb().savedBookings.put({ email: keyOf(email), bookings, savedAt });
}

/** `email`'s offline copy, if this device has one. */
export async function loadSavedBookings(email: string): Promise<SavedBookingList | undefined> {
  const saved = await clinicDb().savedBookings.get(keyOf(email));
  return saved && { bookings: saved.bookings, savedAt: saved.savedAt };
}

/** Forgets `email`'s offline copy (on sign-out, after any write: forget-saved-bookings.ts); other users' copies stay. */
export async function deleteSavedBookings(email: string): Promise<void> {
  await clinicDb().savedBookings.delete(keyOf(email));
}
