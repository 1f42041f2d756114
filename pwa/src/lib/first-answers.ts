// The API answers a signed-in page is drawn with, carried in its HTML when the Worker rendered the page with them
// (worker/src/signed-in-page.ts, for a navigation with the session cookie): the Worker gets the answers
// to the page's calls (rendered-data-paths.ts) from its own API, renders the page with them (entry-server.tsx)
// and puts them in the page, and the app's first render reads them from there, so it hydrates the page the server
// drew.
import { type Middleware, unstable_serialize } from 'swr';
import { FIRST_ANSWERS_ID } from '../../../contract/frames.ts';
import type { MyBookings } from '../features/bookings/api/get-my-bookings.ts';
import { CARD_PROVIDER_PATH, DEPENDANTS_PATH, myBookingsPath } from './api-paths.ts';
import {
  adminStatusKey,
  isAppointmentOptionsKey,
  myBookingsKey,
  myFamilyKey,
  myRemindersKey,
  mySmsKey,
  myWaitlistKey,
  POLICY_KEY,
} from './cache-keys.ts';
import { pathOf } from './route-paths.ts';

/** Who the answers are for, and each GET /api path's JSON answer. */
export type FirstAnswers = { email: string; answers: Record<string, unknown> };

/** The patient's own settings and lists, each cached per patient under [path, email]: the path of each, and its key. */
export const PER_PATIENT = new Map<string, (email: string) => readonly [string, string]>([
  [DEPENDANTS_PATH, myFamilyKey],
  [pathOf('GET /users/me/reminders'), myRemindersKey],
  [pathOf('GET /users/me/sms'), mySmsKey],
  [pathOf('GET /waitlist'), myWaitlistKey],
]);

/** The SWR key a path's answer is read by, and the value its page's fetcher makes of it; undefined for none. */
function cacheEntry(path: string, answer: unknown, email: string, now: number): [string, unknown] | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  if (path === myBookingsPath(email)) {
    if (!Array.isArray(answer)) return undefined;
    const list: MyBookings = { bookings: answer, savedAt: now, offline: false };
    return [unstable_serialize(myBookingsKey(email)), list];
  }
  const perPatient = PER_PATIENT.get(path);
  if (perPatient) return [unstable_serialize(perPatient(email)), answer];
  // Read by their path, as the API answers it: a day's free times (appointmentOptionsKey), the clinic's policy,
  // whether the patient is an admin, one booking and the card provider (the payment page: bookingKey).
  if (isAppointmentOptionsKey(path)) return Array.isArray(answer) ? [path, answer] : undefined;
  if ([POLICY_KEY, adminStatusKey(email), CARD_PROVIDER_PATH].includes(path) || /^\/bookings\/[^/?]+$/.test(path))
    return [path, answer];
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

/**
 * How long after the app's start the answers its page came with count as just given: the Worker answered them for
 * this very navigation (the page is `private, no-store`), which the app starts right after.
 */
export const SERVED_ANSWERS_FRESH_MS = 10_000;

/**
 * SWR middleware, made as the app starts: a hook that mounts with a key the page came with (`served`: SWR's
 * serialized keys) within SERVED_ANSWERS_FRESH_MS does not ask the API again at once. The answer would be the one
 * the page was drawn with, and asking made the page render twice more (validating, then not) as it became
 * interactive. A later mount, focus, reconnection and every change ask again as they always do.
 */
export function servedAnswersFirst(served: ReadonlySet<string>, now = () => performance.now()): Middleware {
  const startedAt = now();
  return (useSWRNext) => (key, fetcher, config) => {
    const fresh = served.has(unstable_serialize(key)) && now() - startedAt < SERVED_ANSWERS_FRESH_MS;
    return useSWRNext(key, fetcher, fresh ? { ...config, revalidateOnMount: false } : config);
  };
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
