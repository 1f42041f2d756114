import type { RouteKey } from '../../../contract/routes.ts';
import {
  adminStatusKey,
  CHAIRS_KEY,
  CLINIC_HOURS_KEY,
  CLOSURES_KEY,
  DEAD_EVENTS_KEY,
  DESK_OUTBOX_KEY,
  DOCTORS_KEY,
  isAppointmentOptionsKey,
  isBookingKey,
  isMyBookingsKey,
  isMyWaitlistKey,
  isOwnReviewKey,
  isScheduleKey,
  isUsersKey,
  MESSAGE_SETTINGS_KEY,
  POLICY_KEY,
  REFUNDS_KEY,
  REVIEW_QUEUE_KEY,
  REVIEWS_KEY,
  SPECIALTIES_IN_USE_KEY,
  SPECIALTIES_KEY,
  TEAM_KEY,
  TREATMENTS_KEY,
} from './cache-keys.ts';
import { pathOf, prefixOf } from './route-paths.ts';

/**
 * What each write changes, everywhere it shows (docs/architecture.md#one-map-from-writes-to-reads):
 * one map from every write route of the contract to the reads it makes stale. `api()` applies it
 * after every write that reached the server, the outbox's sends included, so a screen reached
 * after a change (the schedule after a closure, the block after an offline mark is sent) shows it
 * without a reload. The map is typed by the route table: a write route without its line, or a line
 * for no route, does not compile.
 */

/** A cache key as SWR hands it to a filter: a path, an array whose first item is a path, or an infinite list's serialized key. */
type Key = unknown;

const path = (key: Key): string => {
  if (typeof key === 'string') return key;
  if (Array.isArray(key) && typeof key[0] === 'string') return key[0];
  return '';
};
/** Reads whose path starts with `prefix` (the infinite lists' serialized keys hold their paths too). */
const startingWith =
  (...prefixes: string[]) =>
  (key: Key) =>
    prefixes.some((prefix) => {
      const p = path(key);
      return p.startsWith(prefix) || (p.startsWith('$inf$') && p.includes(`"${prefix}`));
    });
const exactly =
  (...keys: string[]) =>
  (key: Key) =>
    keys.includes(path(key));

/** The reads of the app, each a test on SWR's keys. */
const READS = {
  /** Every day's free times, the family's too. */
  freeTimes: (key: Key) => isAppointmentOptionsKey(key) || startingWith(prefixOf('GET /appointmentOptions'))(key),
  /** My Appointments, past and cancelled, one booking, its receipt and its forms, the statement and a fee. */
  bookings: (key: Key) =>
    isMyBookingsKey(key) ||
    isBookingKey(key) ||
    startingWith(
      prefixOf('GET /bookings/history'),
      `${prefixOf('GET /bookings')}?`,
      prefixOf('GET /users/me/statement'),
      prefixOf('GET /fees/:id'),
    )(key),
  /** The front desk's days, counts and review list, and what waits on this device. */
  schedule: (key: Key) =>
    isScheduleKey(key) ||
    key === DESK_OUTBOX_KEY ||
    startingWith(prefixOf('GET /users/search'))(key) ||
    (typeof key === 'string' && key.startsWith(prefixOf('GET /users/:id/statement')) && key.endsWith('/statement')),
  refunds: exactly(REFUNDS_KEY),
  insights: startingWith(prefixOf('GET /insights')),
  activity: startingWith(prefixOf('GET /audit')),
  waitlist: (key: Key) => isMyWaitlistKey(key) || startingWith(prefixOf('GET /waitlist/offers/:id'))(key),
  family: startingWith(prefixOf('GET /users/me/dependants')),
  recalls: startingWith(prefixOf('GET /recalls'), prefixOf('GET /users/me/recalls')),
  links: startingWith(prefixOf('GET /links/:token')),
  clinic: (key: Key) =>
    exactly(
      TREATMENTS_KEY,
      CLINIC_HOURS_KEY,
      CLOSURES_KEY,
      CHAIRS_KEY,
      SPECIALTIES_KEY,
      SPECIALTIES_IN_USE_KEY,
      DOCTORS_KEY,
      TEAM_KEY,
      pathOf('GET /clinic'),
    )(key),
  settings: exactly(MESSAGE_SETTINGS_KEY, POLICY_KEY, DEAD_EVENTS_KEY, pathOf('GET /clinic')),
  forms: startingWith(prefixOf('GET /forms')),
  users: (key: Key) => isUsersKey(key) || startingWith(adminStatusKey(''))(key),
  reviews: (key: Key) => exactly(REVIEWS_KEY, REVIEW_QUEUE_KEY)(key) || isOwnReviewKey(key),
  /** The patient's own settings: reminders, texts, their language. */
  account: startingWith(
    prefixOf('GET /users/me/sms'),
    prefixOf('GET /users/me/language'),
    prefixOf('GET /users/me/reminders'),
    prefixOf('GET /users/me/cards'),
  ),
} satisfies Record<string, (key: Key) => boolean>;

type Read = keyof typeof READS;
type WriteRoute = Extract<RouteKey, `${'POST' | 'PUT' | 'DELETE'} ${string}`>;

/** A change to a booking shows on every screen of bookings, money and the day. */
const BOOKING: Read[] = ['bookings', 'freeTimes', 'schedule', 'waitlist', 'refunds', 'insights', 'activity', 'links'];
/**
 * An action taken on a signed link: the link's own page shows the action's answer. Read again, a
 * link that has done its work (a visit booked or cancelled through it) is gone (410).
 */
const THROUGH_A_LINK: Read[] = BOOKING.filter((read) => read !== 'links');
/** A change to the clinic's schedule (hours, closures, people, rooms) strands or frees bookings. */
const SCHEDULE: Read[] = ['clinic', ...BOOKING];

/** Every write route and the reads it makes stale (none: it changes nothing a screen reads). */
export const INVALIDATES: Record<WriteRoute, readonly Read[]> = {
  'POST /sessions/revoke': [],
  'POST /users': ['users'],
  'PUT /users/admin/:target': ['users', 'activity'],
  'DELETE /users/me': [...BOOKING, 'users', 'family', 'account'],
  'DELETE /users/:id': [...BOOKING, 'users', 'recalls'],
  'POST /bookings': [...BOOKING, 'recalls'],
  'POST /bookings/family': [...BOOKING, 'recalls'],
  'DELETE /bookings/:id': BOOKING,
  'PUT /bookings/:id/forms/:formId': ['bookings', 'schedule', 'activity'],
  'POST /bookings/:id/kiosk': [],
  'POST /feeds': ['account'],
  'DELETE /feeds': ['account'],
  'POST /forms': ['forms', 'bookings', 'schedule', 'activity'],
  'PUT /forms/:id': ['forms', 'bookings', 'schedule', 'activity'],
  'POST /bookings/:id/reschedule': BOOKING,
  'POST /bookings/:id/attendance': [...BOOKING, 'recalls'],
  'PUT /bookings/:id/note': ['schedule', 'activity'],
  'POST /bookings/:id/desk-payment': BOOKING,
  'POST /users/me/cards': ['account'],
  'DELETE /users/me/cards/:id': ['account'],
  'POST /fees/:id/waive': BOOKING,
  'POST /bookings/:id/keep': BOOKING,
  'POST /bookings/:id/cancel': BOOKING,
  'POST /phone-bookings': [...BOOKING, 'users', 'recalls'],
  'POST /phone-bookings/family': [...BOOKING, 'recalls'],
  'POST /reviews': ['reviews'],
  'PUT /reviews/:id/status': ['reviews', 'activity'],
  'POST /create-payment-intent': [],
  'POST /payments': BOOKING,
  'POST /refunds/:id/handed-back': ['refunds', 'bookings', 'schedule', 'activity'],
  'POST /stripe/webhook': [],
  // The card is confirmed, then the page records the payment (POST /payments), which refreshes the
  // bookings: refreshed in between, a family's payment page would change what it pays for mid-payment.
  'POST /demo-payments/confirm': ['account'],
  'POST /contact': [],
  'POST /images': [],
  'POST /doctors': SCHEDULE,
  'PUT /doctors/:id': SCHEDULE,
  'DELETE /doctors/:id': SCHEDULE,
  'POST /treatments': SCHEDULE,
  'PUT /treatments/:id': SCHEDULE,
  'DELETE /treatments/:id': SCHEDULE,
  'POST /users/me/dependants': ['family', 'bookings'],
  'PUT /users/me/dependants/:id': ['family', 'bookings', 'schedule'],
  'DELETE /users/me/dependants/:id': ['family', 'bookings'],
  'POST /users/me/dependants/:id/invite': ['family'],
  'POST /recalls': ['recalls', 'activity'],
  'POST /recalls/import': ['recalls', 'activity'],
  'PUT /recalls/:id': ['recalls', 'activity'],
  'PUT /users/me/sms': ['account'],
  'PUT /users/me/language': ['account'],
  'POST /links/:token/confirm': THROUGH_A_LINK,
  'POST /links/:token/callback': THROUGH_A_LINK,
  'POST /links/:token/cancel': THROUGH_A_LINK,
  'POST /links/:token/book': [...THROUGH_A_LINK, 'recalls'],
  'PUT /links/:token/forms/:formId': ['links', 'bookings', 'schedule'],
  'POST /sms/inbound': [],
  'PUT /clinic/hours': SCHEDULE,
  'PUT /clinic/policy': ['settings', 'bookings'],
  'POST /closures': SCHEDULE,
  'DELETE /closures/:id': SCHEDULE,
  'POST /chairs': SCHEDULE,
  'PUT /chairs/:id': SCHEDULE,
  'DELETE /chairs/:id': SCHEDULE,
  'POST /specialties': SCHEDULE,
  'PUT /specialties/:id': SCHEDULE,
  'DELETE /specialties/:id': SCHEDULE,
  'PUT /users/me/reminders': ['account'],
  'PUT /messages/settings': ['settings', 'activity'],
  'POST /events/dead/:seq/replay': ['settings'],
  'POST /waitlist': ['waitlist', 'freeTimes'],
  'DELETE /waitlist/:id': ['waitlist', 'freeTimes', 'schedule'],
  'POST /waitlist/offers/:id/accept': [...BOOKING, 'waitlist'],
  'POST /waitlist/offers/:id/decline': ['waitlist', 'freeTimes', 'schedule'],
};

/** Each write route as a method and a pattern of its path (a `:param` is one segment). */
const WRITES = (Object.entries(INVALIDATES) as [WriteRoute, readonly Read[]][]).map(([route, reads]) => {
  const [method, pattern] = route.split(' ') as [string, string];
  const source = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, pattern: new RegExp(`^${source}$`), route, reads };
});

/** The write route a call is (its path under /api, query left out), or undefined for a read or an unknown path. */
export function writeRouteOf(method: string, apiPath: string): WriteRoute | undefined {
  const pathname = apiPath.split('?')[0] ?? '';
  return WRITES.find((write) => write.method === method.toUpperCase() && write.pattern.test(pathname))?.route;
}

/** A test on cache keys: whether the key shows something the write `method apiPath` changed. */
export function staleAfter(method: string, apiPath: string): ((key: Key) => boolean) | null {
  const route = writeRouteOf(method, apiPath);
  const reads = route ? INVALIDATES[route] : [];
  if (reads.length === 0) return null;
  return (key) => reads.some((read) => READS[read](key));
}

type Mutate = (matcher: (key: Key) => boolean) => unknown;
let mutateCache: Mutate | null = null;

/** The app's SWR cache (its mutate), handed over by its provider (app/provider.tsx). */
export function setCacheForInvalidation(mutate: Mutate): void {
  mutateCache = mutate;
}

/**
 * After a write that reached the server (done, or refused because things changed): its reads,
 * fetched again where they show (SWR refetches the mounted ones and the others on their next mount).
 */
export async function invalidateAfterWrite(method: string, apiPath: string): Promise<void> {
  const stale = staleAfter(method, apiPath);
  if (!stale || !mutateCache) return;
  try {
    await mutateCache(stale);
  } catch {
    // a read that fails shows its own error where it is shown
  }
}
