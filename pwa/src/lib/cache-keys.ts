// Every SWR cache key of the app, in one place. Each feature reads through its own keys, and a write
// refreshes exactly the caches it changes (features/*/api), even another feature's, without
// importing that feature.
import { bookingPath, DEPENDANTS_PATH } from './api-paths.ts';
import { pathOf, prefixOf } from './route-paths.ts';

const APPOINTMENT_OPTIONS = `${pathOf('GET /appointmentOptions')}?`;
/** Free slots of every treatment on one day (one doctor's, if named); `date` as the API takes it (date-fns PP, "Nov 21, 2026"). */
export const appointmentOptionsKey = (date: string, doctorId: string | null = null) =>
  pathOf('GET /appointmentOptions', { query: { date, doctorId } });
/** Any day's free slots: every schedule change (treatments, hours, closures, doctors, chairs) changes them. */
export const isAppointmentOptionsKey = (key: unknown) => typeof key === 'string' && key.startsWith(APPOINTMENT_OPTIONS);

const MY_BOOKINGS = pathOf('GET /bookings');
/** A patient's bookings (My Appointments). */
export const myBookingsKey = (email: string) => [MY_BOOKINGS, email] as const;
export type MyBookingsKey = ReturnType<typeof myBookingsKey>;
/** Any patient's bookings list. */
export const isMyBookingsKey = (key: unknown) => Array.isArray(key) && key[0] === MY_BOOKINGS;

/** One booking, as the payment page loads it: its API path. */
export const bookingKey = bookingPath;
/** A booking's key, or its receipt's. */
export const isBookingKey = (key: unknown) => typeof key === 'string' && key.startsWith(prefixOf('GET /bookings/:id'));

/** The client secret of a booking's payment. */
/** The intent of a booking, or of a family visit (`family:<id>`). */
export const paymentIntentKey = (payFor: string) => [pathOf('POST /create-payment-intent'), payFor] as const;
export type PaymentIntentKey = ReturnType<typeof paymentIntentKey>;

export const DOCTORS_KEY = pathOf('GET /doctors');
export const SPECIALTIES_KEY = pathOf('GET /appointmentSpecialty');
/** The doctors as patients see them (the home page's "Our doctors"). */
export const TEAM_KEY = pathOf('GET /team');

/** The admin's schedule: every treatment (active or not), the week's hours, closures, chairs. */
export const TREATMENTS_KEY = pathOf('GET /treatments');
export const CLINIC_HOURS_KEY = pathOf('GET /clinic/hours');
export const CLOSURES_KEY = pathOf('GET /closures');
export const CHAIRS_KEY = pathOf('GET /chairs');
/** The specialties with how many doctors and treatments have each (admin). */
export const SPECIALTIES_IN_USE_KEY = pathOf('GET /specialties');

export const MESSAGE_SETTINGS_KEY = pathOf('GET /messages/settings');
export const DEAD_EVENTS_KEY = pathOf('GET /events/dead');

export const USERS_KEY = pathOf('GET /users');
/** Any page of the user list (GET /api/users?q=&page=). */
export const isUsersKey = (key: unknown) => typeof key === 'string' && key.startsWith(`${USERS_KEY}?`);
export const adminStatusKey = (email: string) => pathOf('GET /users/admin/:target', { params: { target: email } });

/** The approved reviews (the home page's testimonials). */
export const REVIEWS_KEY = pathOf('GET /reviews');
/** Every review, for the admins who approve them. */
export const REVIEW_QUEUE_KEY = pathOf('GET /reviews/moderation');
const OWN_REVIEW = pathOf('GET /reviews/mine');
/** The signed-in patient's own review (the path is the same for everyone; the email keeps users apart). */
export const ownReviewKey = (email: string) => [OWN_REVIEW, email] as const;
export type OwnReviewKey = ReturnType<typeof ownReviewKey>;
/** Any user's own review. */
export const isOwnReviewKey = (key: unknown) => Array.isArray(key) && key[0] === OWN_REVIEW;

export const REFUNDS_KEY = pathOf('GET /refunds');

const SCHEDULE = pathOf('GET /schedule');
/** One day of the front desk's schedule (ISO date). */
export const scheduleDayKey = (date: string) => pathOf('GET /schedule', { query: { date } });
/** The appointments per day of a range (ISO dates). */
export const scheduleCountsKey = (from: string, to: string) => pathOf('GET /schedule', { query: { from, to } });
/** Any schedule answer: a day or the counts of a range. */
/** GET /api/schedule/review: the bookings waiting for the front desk. */
export const REVIEW_KEY = pathOf('GET /schedule/review');
/** Every cached read of the schedule: its days, its counts and the review list. */
export const isScheduleKey = (key: unknown) =>
  typeof key === 'string' && (key.startsWith(`${SCHEDULE}?`) || key === REVIEW_KEY);
/** The front desk's writes waiting in (or refused from) this device's outbox: not an API read. */
export const DESK_OUTBOX_KEY = 'outbox:desk';
/** Patients found by the front desk's search. */
export const patientSearchKey = (q: string) => pathOf('GET /users/search', { query: { q } });

/** One page of the audit trail (Activity): its filters, and the cursor the page before it answered (null: the first). */
export function auditPageKey(filter: { type: string; actor: string }, cursor: string | null): string {
  return pathOf('GET /audit', {
    query: { type: filter.type || null, actor: filter.actor || null, cursor },
  });
}

const MY_WAITLIST = pathOf('GET /waitlist');
/** The signed-in patient's waitlist entries (the path is the same for everyone; the email keeps users apart). */
export const myWaitlistKey = (email: string) => [MY_WAITLIST, email] as const;
export type MyWaitlistKey = ReturnType<typeof myWaitlistKey>;
/** Any patient's waitlist entries. */
export const isMyWaitlistKey = (key: unknown) => Array.isArray(key) && key[0] === MY_WAITLIST;

const MY_REMINDERS = pathOf('GET /users/me/reminders');
/** Whether the signed-in patient gets reminders by mail. */
export const myRemindersKey = (email: string) => [MY_REMINDERS, email] as const;
export type MyRemindersKey = ReturnType<typeof myRemindersKey>;

const MY_FAMILY = DEPENDANTS_PATH;
/** The people in the signed-in patient's account, per account. */
export const myFamilyKey = (email: string) => [MY_FAMILY, email] as const;
export type MyFamilyKey = ReturnType<typeof myFamilyKey>;

const MY_SMS = pathOf('GET /users/me/sms');
/** The signed-in patient's mobile number and SMS consent, per account. */
export const mySmsKey = (email: string) => [MY_SMS, email] as const;
export type MySmsKey = ReturnType<typeof mySmsKey>;

const MY_CARDS = pathOf('GET /users/me/cards');
/** The signed-in patient's cards on file, per account. */
export const myCardsKey = (email: string) => [MY_CARDS, email] as const;
export type MyCardsKey = ReturnType<typeof myCardsKey>;

const MY_STATEMENT = pathOf('GET /users/me/statement');
/** The signed-in patient's statement, per account. */
export const myStatementKey = (email: string) => [MY_STATEMENT, email] as const;
export type MyStatementKey = ReturnType<typeof myStatementKey>;

/** One waitlist offer, as its page loads it. */
export const offerKey = (id: string) => pathOf('GET /waitlist/offers/:id', { params: { id } });
/** A paid booking's receipt. */
export const receiptKey = (bookingId: string) => pathOf('GET /bookings/:id/receipt', { params: { id: bookingId } });

/** The clinic's rules for changing a booking online: free cancellation and the reschedule cutoff. */
export const POLICY_KEY = pathOf('GET /clinic/policy');
