// The API answers a signed-in page shows first, carried in its HTML when the Worker rendered the page with them
// (worker/src/platform/signed-in-page.ts, for a navigation with the session cookie): the Worker gets the answers
// to the page's first calls (api-paths.ts, firstDataPaths) from its own API, renders the page with them
// (entry-server.tsx) and puts them in the page, and the app's first render reads them from there, so it draws the
// same page over the served one rather than a spinner.
import { unstable_serialize } from 'swr';
import type { MyBookings } from '../features/bookings/api/get-my-bookings.ts';
import { DEPENDANTS_PATH, myBookingsPath } from './api-paths.ts';
import { myBookingsKey, myFamilyKey } from './cache-keys.ts';

/** The id of the JSON block that carries them. */
export const FIRST_ANSWERS_ID = 'first-answers';

/** Who the answers are for, and each GET /api path's JSON answer. */
export type FirstAnswers = { email: string; answers: Record<string, unknown> };

/** The SWR key a path's answer is read by, and the value its page's fetcher makes of it; undefined for none. */
function cacheEntry(path: string, answer: unknown, email: string, now: number): [string, unknown] | undefined {
  if (path === myBookingsPath(email) && Array.isArray(answer)) {
    const list: MyBookings = { bookings: answer, savedAt: now, offline: false };
    return [unstable_serialize(myBookingsKey(email)), list];
  }
  if (path === DEPENDANTS_PATH && Array.isArray(answer)) return [unstable_serialize(myFamilyKey(email)), answer];
  // One booking (the payment page): its key is its path (bookingKey).
  if (/^\/bookings\/[^/?]+$/.test(path) && answer && typeof answer === 'object') return [path, answer];
  return undefined;
}

/** SWR's `fallback` for the answers: each under the key its page reads it by, as its fetcher would have made it. */
export function firstAnswersFallback({ email, answers }: FirstAnswers, now = Date.now()): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).flatMap(([path, answer]) => {
      const entry = cacheEntry(path, answer, email, now);
      return entry ? [entry] : [];
    }),
  );
}

/** The answers the served page carries, or null (none, or not for the signed-in `email`). */
export function firstAnswersInPage(email: string | null | undefined): FirstAnswers | null {
  if (!email || typeof document === 'undefined') return null;
  try {
    const parsed = JSON.parse(document.getElementById(FIRST_ANSWERS_ID)?.textContent ?? 'null') as FirstAnswers | null;
    const valid = parsed && typeof parsed.email === 'string' && typeof parsed.answers === 'object' && parsed.answers;
    return valid && parsed.email.toLowerCase() === email.toLowerCase() ? parsed : null;
  } catch {
    return null;
  }
}
