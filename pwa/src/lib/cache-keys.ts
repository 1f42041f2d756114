// Every SWR cache key of the app, in one place. Each feature reads through its own keys, and a write
// refreshes exactly the caches it changes (features/*/api), even another feature's, without
// importing that feature.
import { bookingPath } from './api-paths.ts';

const APPOINTMENT_OPTIONS = '/appointmentOptions?date=';
/** Free slots of every treatment on one day (one doctor's, if named); `date` as the API takes it (date-fns PP, "Nov 21, 2026"). */
export const appointmentOptionsKey = (date: string, doctorId: string | null = null) =>
  `${APPOINTMENT_OPTIONS}${encodeURIComponent(date)}${doctorId ? `&doctorId=${encodeURIComponent(doctorId)}` : ''}`;
/** Any day's free slots: every schedule change (treatments, hours, closures, doctors, chairs) changes them. */
export const isAppointmentOptionsKey = (key: unknown) => typeof key === 'string' && key.startsWith(APPOINTMENT_OPTIONS);

const MY_BOOKINGS = '/bookings';
/** A patient's bookings (My Appointments). */
export const myBookingsKey = (email: string) => [MY_BOOKINGS, email] as const;
export type MyBookingsKey = ReturnType<typeof myBookingsKey>;
/** Any patient's bookings list. */
export const isMyBookingsKey = (key: unknown) => Array.isArray(key) && key[0] === MY_BOOKINGS;

/** One booking, as the payment page loads it: its API path. */
export const bookingKey = bookingPath;
/** A booking's key, or its receipt's. */
export const isBookingKey = (key: unknown) => typeof key === 'string' && key.startsWith('/bookings/');

/** The client secret of a booking's payment. */
/** The intent of a booking, or of a family visit (`family:<id>`). */
export const paymentIntentKey = (payFor: string) => ['/create-payment-intent', payFor] as const;
export type PaymentIntentKey = ReturnType<typeof paymentIntentKey>;

export const DOCTORS_KEY = '/doctors';
export const SPECIALTIES_KEY = '/appointmentSpecialty';
/** The doctors as patients see them (the home page's "Our doctors"). */
export const TEAM_KEY = '/team';

/** The admin's schedule: every treatment (active or not), the week's hours, closures, chairs. */
export const TREATMENTS_KEY = '/treatments';
export const CLINIC_HOURS_KEY = '/clinic/hours';
export const CLOSURES_KEY = '/closures';
export const CHAIRS_KEY = '/chairs';
/** The specialties with how many doctors and treatments have each (admin). */
export const SPECIALTIES_IN_USE_KEY = '/specialties';

export const MESSAGE_SETTINGS_KEY = '/messages/settings';
export const DEAD_EVENTS_KEY = '/events/dead';

export const USERS_KEY = '/users';
/** Any page of the user list (GET /api/users?q=&page=). */
export const isUsersKey = (key: unknown) => typeof key === 'string' && key.startsWith(`${USERS_KEY}?`);
export const adminStatusKey = (email: string) => `/users/admin/${encodeURIComponent(email)}`;

/** The approved reviews (the home page's testimonials). */
export const REVIEWS_KEY = '/reviews';
/** Every review, for the admins who approve them. */
export const REVIEW_QUEUE_KEY = '/reviews/moderation';
const OWN_REVIEW = '/reviews/mine';
/** The signed-in patient's own review (the path is the same for everyone; the email keeps users apart). */
export const ownReviewKey = (email: string) => [OWN_REVIEW, email] as const;
export type OwnReviewKey = ReturnType<typeof ownReviewKey>;
/** Any user's own review. */
export const isOwnReviewKey = (key: unknown) => Array.isArray(key) && key[0] === OWN_REVIEW;

export const REFUNDS_KEY = '/refunds';

const SCHEDULE = '/schedule';
/** One day of the front desk's schedule (ISO date). */
export const scheduleDayKey = (date: string) => `${SCHEDULE}?date=${date}`;
/** The appointments per day of a range (ISO dates). */
export const scheduleCountsKey = (from: string, to: string) => `${SCHEDULE}?from=${from}&to=${to}`;
/** Any schedule answer: a day or the counts of a range. */
/** GET /api/schedule/review: the bookings waiting for the front desk. */
export const REVIEW_KEY = `${SCHEDULE}/review`;
/** Every cached read of the schedule: its days, its counts and the review list. */
export const isScheduleKey = (key: unknown) =>
  typeof key === 'string' && (key.startsWith(`${SCHEDULE}?`) || key === REVIEW_KEY);
/** The front desk's writes waiting in (or refused from) this device's outbox: not an API read. */
export const DESK_OUTBOX_KEY = 'outbox:desk';
/** Patients found by the front desk's search. */
export const patientSearchKey = (q: string) => `/users/search?q=${encodeURIComponent(q)}`;

/** One page of the audit trail (Activity): its filters, and the cursor the page before it answered (null: the first). */
export function auditPageKey(filter: { type: string; actor: string }, cursor: string | null): string {
  const query = new URLSearchParams();
  if (filter.type) query.set('type', filter.type);
  if (filter.actor) query.set('actor', filter.actor);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `/audit?${search}` : '/audit';
}

const MY_WAITLIST = '/waitlist';
/** The signed-in patient's waitlist entries (the path is the same for everyone; the email keeps users apart). */
export const myWaitlistKey = (email: string) => [MY_WAITLIST, email] as const;
export type MyWaitlistKey = ReturnType<typeof myWaitlistKey>;
/** Any patient's waitlist entries. */
export const isMyWaitlistKey = (key: unknown) => Array.isArray(key) && key[0] === MY_WAITLIST;

const MY_REMINDERS = '/users/me/reminders';
/** Whether the signed-in patient gets reminders by mail. */
export const myRemindersKey = (email: string) => [MY_REMINDERS, email] as const;
export type MyRemindersKey = ReturnType<typeof myRemindersKey>;

const MY_FAMILY = '/users/me/dependants';
/** The people in the signed-in patient's account, per account. */
export const myFamilyKey = (email: string) => [MY_FAMILY, email] as const;
export type MyFamilyKey = ReturnType<typeof myFamilyKey>;

const MY_SMS = '/users/me/sms';
/** The signed-in patient's mobile number and SMS consent, per account. */
export const mySmsKey = (email: string) => [MY_SMS, email] as const;
export type MySmsKey = ReturnType<typeof mySmsKey>;

const MY_CARDS = '/users/me/cards';
/** The signed-in patient's cards on file, per account. */
export const myCardsKey = (email: string) => [MY_CARDS, email] as const;
export type MyCardsKey = ReturnType<typeof myCardsKey>;

const MY_STATEMENT = '/users/me/statement';
/** The signed-in patient's statement, per account. */
export const myStatementKey = (email: string) => [MY_STATEMENT, email] as const;
export type MyStatementKey = ReturnType<typeof myStatementKey>;

/** One waitlist offer, as its page loads it. */
export const offerKey = (id: string) => `/waitlist/offers/${encodeURIComponent(id)}`;
/** A paid booking's receipt. */
export const receiptKey = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/receipt`;

/** The clinic's rules for changing a booking online: free cancellation and the reschedule cutoff. */
export const POLICY_KEY = '/clinic/policy';
