import * as v from 'valibot';
import { daysBetween, isoDate } from './fields.ts';

/** The longest range GET /api/schedule?from=&to= and the CSV export answer, in days (both ends included). */
export const MAX_SCHEDULE_RANGE_DAYS = 92;

type Range = { from?: string | undefined; to?: string | undefined };
const ordered = (q: Range) => q.from === undefined || q.to === undefined || q.from <= q.to;
const ORDERED = 'to must be the same day as from or later';
const capped = (q: Range) =>
  q.from === undefined || q.to === undefined || daysBetween(q.from, q.to) < MAX_SCHEDULE_RANGE_DAYS;
const CAPPED = `A range may cover at most ${MAX_SCHEDULE_RANGE_DAYS} days`;

/**
 * GET /api/schedule (admin): `?date=2026-11-21` answers that day's schedule (ScheduleDay);
 * `?from=&to=` answers the bookings per day of the range (DayCount[]).
 */
export const ScheduleQuery = v.pipe(
  v.object({ date: v.optional(isoDate('date')), from: v.optional(isoDate('from')), to: v.optional(isoDate('to')) }),
  v.check(
    (q) => (q.date !== undefined) !== (q.from !== undefined || q.to !== undefined),
    'Ask for one day (?date=2026-11-21) or a range (?from=2026-11-16&to=2026-11-22)',
  ),
  v.check((q) => (q.from === undefined) === (q.to === undefined), 'A range needs both from and to'),
  v.check((q) => ordered(q), ORDERED),
  v.check((q) => capped(q), CAPPED),
);

/** GET /api/schedule.csv?from=&to= (admin): both dates required. */
export const ScheduleCsvQuery = v.pipe(
  v.object({ from: isoDate('from'), to: isoDate('to') }),
  v.check((q) => ordered(q), ORDERED),
  v.check((q) => capped(q), CAPPED),
);

export const ScheduleStatus = v.picklist(['active', 'cancelled', 'attended', 'no_show']);

/** One booking on the day's schedule (a moved booking is not listed: the booking that replaced it is). */
export const ScheduleEntry = v.strictObject({
  _id: v.string(),
  /** The patient's account id. */
  userId: v.string(),
  patientName: v.string(),
  email: v.string(),
  phone: v.string(),
  treatment: v.string(),
  treatmentId: v.string(),
  /** "09:30" on the clinic's clock, and the same in minutes after midnight. */
  start: v.string(),
  startMinute: v.number(),
  durationMinutes: v.number(),
  /** "09.30 AM - 10.30 AM". */
  slot: v.string(),
  /** When it starts (ISO, UTC). */
  startsAt: v.string(),
  doctor: v.nullable(v.strictObject({ _id: v.string(), name: v.string() })),
  chair: v.nullable(v.strictObject({ _id: v.string(), name: v.string() })),
  /** In dollars. */
  price: v.number(),
  paid: v.boolean(),
  /** Unpaid and priced: paid at the clinic ('clinic', never released), or online by `payBy` ('online'); null otherwise. */
  payment: v.nullable(v.picklist(['clinic', 'online'])),
  /** The deadline to pay online (ISO, UTC), or null. */
  payBy: v.nullable(v.string()),
  /** A deposit booking's share paid online, in dollars (null: none), and the rest still to take at the desk (0: none). */
  deposit: v.nullable(v.number()),
  balanceDue: v.number(),
  /** The missed-appointment fee its patient accepted when booking with a card on file, in dollars (0: none). */
  noShowFee: v.number(),
  /** Its latest fee (no-show or late cancel): what the desk may waive. */
  fee: v.nullable(
    v.strictObject({
      _id: v.string(),
      kind: v.picklist(['no_show', 'late_cancel']),
      amount: v.number(),
      status: v.picklist(['charging', 'charged', 'unpaid', 'paid', 'waived']),
    }),
  ),
  /** An unpaid booking whose hold ended counts as cancelled ('unpaid'), swept or not yet. */
  status: ScheduleStatus,
  cancelReason: v.nullable(v.picklist(['patient', 'admin', 'unpaid'])),
  cancelNote: v.nullable(v.string()),
  /** The patient's answer to the reminder: coming ('confirmed'), asked to be called ('callback'), or none yet. */
  confirmation: v.picklist(['unconfirmed', 'confirmed', 'callback']),
  /** Booked with other members of one family as one visit (the same id on each), or null. */
  familyVisitId: v.nullable(v.string()),
  /** The others in the patient's account: its holder (accountHolder) and the people it cares for. */
  family: v.array(v.strictObject({ name: v.string(), accountHolder: v.boolean() })),
  /** It could not get its doctor or chair, or a schedule change was forced over it: the front desk should look. */
  needsReview: v.boolean(),
  /** How many appointments this patient has missed (marked no-show), this one included. */
  noShows: v.number(),
  /** Every form the visit needs is filled (docs/product-booking.md#forms); else `formsMissing` names those still to fill. */
  formsComplete: v.boolean(),
  formsMissing: v.array(v.string()),
  /** What the dentist must know from the patient's answers ("Penicillin allergy"). */
  alerts: v.array(v.string()),
  /** The front desk's note on the visit, or null, and its version (a note written on it carries it). */
  note: v.nullable(v.string()),
  noteVersion: v.number(),
  /** The booking's version: a mark or a note made offline carries it (Attendance.version). */
  version: v.number(),
});
export type ScheduleEntry = v.InferOutput<typeof ScheduleEntry>;

export const ScheduleDay = v.strictObject({
  /** ISO date, and as the product shows it ("Nov 21, 2026"). */
  date: v.string(),
  appointmentDate: v.string(),
  /** The opening hours that weekday ("09:00"), null when the clinic does not open that weekday. */
  hours: v.nullable(v.strictObject({ open: v.string(), close: v.string() })),
  /** Closures covering the date: the whole clinic (doctorId null) or one doctor. */
  closures: v.array(v.strictObject({ reason: v.string(), doctorId: v.nullable(v.string()) })),
  /** The doctors who work that weekday, and any other doctor with a booking that day. */
  doctors: v.array(v.strictObject({ _id: v.string(), name: v.string(), specialty: v.string() })),
  chairs: v.array(v.strictObject({ _id: v.string(), name: v.string() })),
  /** By start, then doctor. */
  bookings: v.array(ScheduleEntry),
});
export type ScheduleDay = v.InferOutput<typeof ScheduleDay>;

/**
 * GET /api/schedule/review (admin): every upcoming booking waiting for the front desk (a schedule
 * change left it without its doctor, chair or hours), by date and time, until it is moved,
 * cancelled or kept (POST /api/bookings/:id/keep).
 */
export const ReviewEntry = v.strictObject({
  ...ScheduleEntry.entries,
  /** ISO date, and as the product shows it ("Nov 21, 2026"). */
  date: v.string(),
  appointmentDate: v.string(),
});
export type ReviewEntry = v.InferOutput<typeof ReviewEntry>;

/** The appointments of one day that take place or took place (active, attended, no-show). */
export const DayCount = v.strictObject({
  date: v.string(),
  count: v.number(),
  /** Why the clinic is closed that day (a closure's reason, or no hours that weekday); null when it opens. */
  closed: v.nullable(v.string()),
});
export type DayCount = v.InferOutput<typeof DayCount>;

export const ScheduleAnswer = v.union([ScheduleDay, v.array(DayCount)]);
export type ScheduleAnswer = v.InferOutput<typeof ScheduleAnswer>;
