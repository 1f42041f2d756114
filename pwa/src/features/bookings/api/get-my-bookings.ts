import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { Booking } from '../../../../../contract/bookings.ts';
import { askWorker } from '../../../lib/ask-worker.ts';
import { type MyBookingsKey, myBookingsKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { logUnexpected } from '../../../lib/error-text.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { signedInEmailHint } from '../../../lib/session.tsx';

export type { Booking };

/**
 * The patient's bookings and when they were loaded. `offline` marks the copy this device saved at
 * `savedAt`, shown because the server could not be reached.
 */
export type MyBookings = { bookings: Booking[]; savedAt: number; offline: boolean };

const loadSavedBookingsModule = () => import('./saved-bookings.ts');

/**
 * GET /api/bookings?email= (signed in): the patient's bookings by date and time. The one place the
 * list is fetched: every list it gets is saved on this device under that user, and when the network
 * fails the saved list is returned instead, marked offline. With nothing saved, the network error
 * is thrown. Server answers (4xx, 5xx) are thrown as they are: the saved list is for offline only.
 */
export async function fetchMyBookings(email: string, keep = true): Promise<MyBookings> {
  let bookings: Booking[];
  try {
    bookings = await client('GET /bookings', { query: { email } });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    // A list loaded a moment ago may still be on its way to the device.
    await saving;
    const saved = await loadSavedBookingsModule()
      .then(({ loadSavedBookings }) => loadSavedBookings(email))
      .catch((cause: unknown) => {
        logUnexpected(cause);
        return undefined;
      });
    if (!saved) throw error;
    // Saved by this function from an answer of the same API.
    return { bookings: saved.bookings as Booking[], savedAt: saved.savedAt, offline: true };
  }

  const list: MyBookings = { bookings, savedAt: Date.now(), offline: false };
  // The list is shown at once; the offline copy is written behind it (IndexedDB, and its code, can be slow to open).
  if (keep) keepOnDevice(email, list);
  return list;
}

/** The lists saved on this device, or being saved: each list shown online is saved once. */
const kept = new WeakSet<MyBookings>();

/** The latest offline copy being written (each waits for the one before, so the newest list is kept). */
let saving: Promise<void> = Promise.resolve();

function keepOnDevice(email: string, list: MyBookings) {
  if (list.offline || kept.has(list)) return;
  kept.add(list);
  const request: SaveBookingsRequest = { email, bookings: list.bookings, savedAt: list.savedAt };
  const stillSignedIn = () => signedInEmailHint()?.toLowerCase() === email.toLowerCase();
  // Not for a user who signed out while the list was on its way (sign-out has cleared their copy, and first waits
  // for a write already started: forget-saved-bookings.ts).
  saving = saving
    .then(() => (stillSignedIn() ? writeSavedBookings(request) : undefined))
    .catch((cause: unknown) => console.error('The bookings could not be saved for offline use', cause));
}

export type SaveBookingsRequest = { email: string; bookings: Booking[]; savedAt: number };
export type SaveBookingsResult = { saved: true } | { saved: false; reason: string };

/**
 * Writes the copy in a worker (save-bookings.worker.ts), so that IndexedDB's code and the database's opening cost
 * the page nothing just as it has appeared; on the page itself where no worker starts or its code does not run.
 */
async function writeSavedBookings(request: SaveBookingsRequest): Promise<void> {
  const onPage = () =>
    loadSavedBookingsModule().then(({ saveBookings }) =>
      saveBookings(request.email, request.bookings, request.savedAt),
    );
  if (typeof Worker === 'undefined') return onPage();
  const worker = new Worker(new URL('./save-bookings.worker.ts', import.meta.url), { type: 'module' });
  const result = await askWorker<SaveBookingsResult>(worker, request).catch(() => undefined);
  if (!result) return onPage();
  if (!result.saved) throw new Error(result.reason);
}

/** Resolves once every list loaded so far is saved on this device (or its save has failed). */
export function bookingsSaved(): Promise<void> {
  return saving;
}

/**
 * The signed-in patient's bookings, cached under myBookingsKey(email); no request without an email. A reload that
 * brings the same list from the same place changes nothing on screen (not even when it was loaded): the page the
 * Worker rendered with the list is not drawn again when the app's own request answers the same. `keep: false`
 * (the booking page, which reads the last visit only): no offline copy, and none of its code loads.
 */
export function useMyBookings(email: string | null | undefined, { keep = true }: { keep?: boolean } = {}) {
  const { compare } = useSWRConfig();
  const result = useSWR<MyBookings, unknown, MyBookingsKey | null>(
    email ? myBookingsKey(email) : null,
    ([, address]) => fetchMyBookings(address, keep),
    {
      compare: (a, b) => a === b || (a?.offline === b?.offline && compare(a?.bookings, b?.bookings)),
    },
  );
  // The list the page came with (lib/first-answers.ts), which this module did not fetch, is saved too.
  const { data } = result;
  useEffect(() => {
    if (keep && email && data) keepOnDevice(email, data);
  }, [keep, email, data]);
  return result;
}

/**
 * The patient's last visit that `matches` (and has a doctor): the latest that has started and was not
 * cancelled, else the latest booked. What "Book again" repeats, and whose doctor a new booking asks for first.
 */
export function lastVisit(
  bookings: Booking[] | undefined,
  matches: (booking: Booking) => boolean = () => true,
  now = Date.now(),
): Booking | undefined {
  const kept = (bookings ?? [])
    .filter((booking) => booking.status !== 'cancelled' && booking.doctor && matches(booking))
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  return kept.filter((booking) => Date.parse(booking.startsAt) <= now).at(-1) ?? kept.at(-1);
}
