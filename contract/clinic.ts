import * as v from 'valibot';
import { count, Deleted, Inserted } from './answers.ts';
import { ScheduleChangeOutcome, StrandedBooking } from './bookings.ts';
import { clockTime, force, isoDate, text, weekday } from './fields.ts';
import { LANGUAGES } from './languages.ts';

/** The clinic's hours on one weekday (0 Sunday … 6 Saturday), "09:00" to "17:00" on its wall clock. */
export const OpeningHours = v.strictObject({ weekday: v.number(), open: v.string(), close: v.string() });
export type OpeningHours = v.InferOutput<typeof OpeningHours>;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

const OpeningHoursInput = v.pipe(
  v.object({ weekday: weekday('weekday'), open: clockTime('open'), close: clockTime('close') }),
  v.check((day) => minutesOf(day.open) < minutesOf(day.close), 'close must be later than open'),
);

/**
 * PUT /api/clinic/hours (admin): the whole week, one entry per open weekday; a weekday not listed
 * is closed. A change that leaves upcoming bookings outside the hours is refused (409,
 * StrandedConflict) unless `force: true`.
 */
export const HoursChange = v.object({
  hours: v.pipe(
    v.array(OpeningHoursInput, 'hours must be a list of {weekday, open, close}'),
    v.check(
      (days) => new Set(days.map((d) => d.weekday)).size === days.length,
      'hours must list each weekday at most once',
    ),
  ),
  force,
});
export type HoursChange = v.InferInput<typeof HoursChange>;

/** The week's hours as saved, and the upcoming bookings kept outside them (with `force: true`). */
export const HoursSaved = v.strictObject({
  acknowledged: v.literal(true),
  hours: v.array(OpeningHours),
  ...ScheduleChangeOutcome,
});
export type HoursSaved = v.InferOutput<typeof HoursSaved>;

/** A day or range of days (inclusive) when the clinic, or one doctor, does not see patients. */
export const Closure = v.strictObject({
  _id: v.string(),
  /** ISO dates, e.g. "2026-12-24". */
  from: v.string(),
  to: v.string(),
  reason: v.string(),
  /** The doctor who is away; null when the whole clinic is closed. */
  doctorId: v.nullable(v.string()),
  /** That doctor's name (null for the whole clinic, or when the doctor was deleted since). */
  doctor: v.nullable(v.string()),
  createdAt: v.string(),
});
export type Closure = v.InferOutput<typeof Closure>;

/**
 * POST /api/closures (admin): without `doctorId` the whole clinic closes. A closure over upcoming
 * bookings is refused (409, StrandedConflict) unless the desk says what becomes of them:
 * `bookings: 'keep'` (or `force: true`) keeps them for review, each patient told the clinic will
 * call; `bookings: 'cancel'` cancels them (paid ones refunded), each patient told why by mail.
 */
export const NewClosure = v.pipe(
  v.object({
    from: isoDate('from'),
    to: isoDate('to'),
    reason: text('reason', 200),
    doctorId: v.optional(text('doctorId', 100)),
    force,
    bookings: v.optional(v.picklist(['keep', 'cancel'], 'bookings must be "keep" or "cancel"')),
  }),
  v.check((closure) => closure.from <= closure.to, 'to must be the same day as from or later'),
);
export type NewClosure = v.InferInput<typeof NewClosure>;

export const ClosureAdded = v.strictObject({
  ...Inserted.entries,
  ...ScheduleChangeOutcome,
  /** With `bookings: 'cancel'`: the bookings it cancelled (the others it found are in `stranded`). */
  cancelled: v.array(StrandedBooking),
});
export type ClosureAdded = v.InferOutput<typeof ClosureAdded>;
export const ClosureDeleted = Deleted;
export type ClosureDeleted = Deleted;

/** A treatment chair (operatory): every booking takes one for its whole length. */
export const Chair = v.strictObject({ _id: v.string(), name: v.string() });
export type Chair = v.InferOutput<typeof Chair>;

/** POST /api/chairs (admin). */
export const NewChair = v.object({ name: text('name', 50) });
export type NewChair = v.InferInput<typeof NewChair>;

export const ChairAdded = Inserted;
export type ChairAdded = Inserted;

/** DELETE /api/chairs/:id[?force=true] (admin): the upcoming bookings left without a chair (with force). */
export const ChairDeleted = v.strictObject({ ...Deleted.entries, ...ScheduleChangeOutcome });
export type ChairDeleted = v.InferOutput<typeof ChairDeleted>;

/** A specialty of the clinic (who may perform a treatment), with how many doctors and treatments have it. */
export const SpecialtyInUse = v.strictObject({ _id: v.string(), name: v.string(), doctors: count, treatments: count });
export type SpecialtyInUse = v.InferOutput<typeof SpecialtyInUse>;

/** POST /api/specialties and PUT /api/specialties/:id: its name (unique, without case). */
export const NewSpecialty = v.object({ name: text('name', 100) });
export type NewSpecialty = v.InferInput<typeof NewSpecialty>;

/** GET /api/clinic (anyone): who the clinic is, as the admin set it in the message settings. */
export const ClinicInfo = v.strictObject({
  name: v.string(),
  address: v.string(),
  phone: v.string(),
  /** The week's opening hours in words, from the clinic's hours ("9.00 am to 5.00pm every day"). */
  hours: v.string(),
  /** The clinic's next closure, when one is coming within 60 days ("Closed Dec 24, 2026: Holidays"); else null. */
  closure: v.nullable(v.string()),
  /** The clinic's IANA time zone ("America/New_York"): its calendar, its "today" and every time it names. */
  timeZone: v.string(),
  /** How many days ahead a patient may book. */
  bookingHorizonDays: v.number(),
  /** The languages a patient's mails and texts can be in (docs/languages.md). */
  languages: v.array(v.picklist(LANGUAGES)),
});
export type ClinicInfo = v.InferOutput<typeof ClinicInfo>;
