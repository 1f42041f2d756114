import * as v from 'valibot';
import { Deleted, Inserted, Modified } from './answers.ts';
import { ScheduleChangeOutcome } from './bookings.ts';
import { clockTime, email, force, text, weekday } from './fields.ts';

/** A doctor's working hours on each working day, on the clinic's wall clock. */
export const WorkingHours = v.strictObject({ start: v.string(), end: v.string() });
export type WorkingHours = v.InferOutput<typeof WorkingHours>;

/** A doctor's hours on one weekday (0 Sunday … 6 Saturday). */
export const DayHours = v.strictObject({ weekday: v.number(), start: v.string(), end: v.string() });
export type DayHours = v.InferOutput<typeof DayHours>;

export const Doctor = v.strictObject({
  _id: v.string(),
  name: v.string(),
  email: v.string(),
  /** The name of their specialty (GET /api/appointmentSpecialty). */
  specialty: v.string(),
  /** The photo's URL (/api/images/doctors/…). */
  image: v.string(),
  /** The weekdays they work, 0 Sunday … 6 Saturday, ascending. */
  workingDays: v.array(v.number()),
  /** From their earliest start to their latest end (their hours on each day: `weeklyHours`). */
  hours: WorkingHours,
  /** Their hours on each weekday they work, by weekday. */
  weeklyHours: v.array(DayHours),
});
export type Doctor = v.InferOutput<typeof Doctor>;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

const workingDays = v.pipe(
  v.array(weekday('workingDays'), 'workingDays must be a list of weekday numbers, 0 (Sunday) to 6 (Saturday)'),
  v.check((days) => new Set(days).size === days.length, 'workingDays must list each weekday at most once'),
);

const dayHours = v.pipe(
  v.object(
    {
      weekday: weekday('weeklyHours.weekday'),
      start: clockTime('weeklyHours.start'),
      end: clockTime('weeklyHours.end'),
    },
    'each of weeklyHours must be {weekday, start, end}, e.g. {"weekday": 1, "start": "09:00", "end": "13:00"}',
  ),
  v.check((h) => minutesOf(h.start) < minutesOf(h.end), 'each day’s end must be later than its start'),
);

/** Hours per weekday: each weekday at most once; a weekday not listed is a day off. */
const weeklyHours = v.pipe(
  v.array(dayHours, 'weeklyHours must be a list of {weekday, start, end}'),
  v.check(
    (days) => new Set(days.map((d) => d.weekday)).size === days.length,
    'weeklyHours must list each weekday at most once',
  ),
);

const hours = v.pipe(
  v.object(
    { start: clockTime('hours.start'), end: clockTime('hours.end') },
    'hours must be {start, end}, e.g. {"start": "09:00", "end": "17:00"}',
  ),
  v.check((h) => minutesOf(h.start) < minutesOf(h.end), 'hours.end must be later than hours.start'),
);

/** Every day, 09:00 to 17:00: the clinic's opening hours in the product reference. */
export const DEFAULT_WORKING_DAYS = [0, 1, 2, 3, 4, 5, 6];
export const DEFAULT_HOURS = { start: '09:00', end: '17:00' };

/**
 * POST /api/doctors: `image` is the URL answered by POST /api/images, used by no other doctor;
 * `specialty` a specialty's name. Without `workingDays` and `hours` the doctor works every day,
 * 09:00 to 17:00.
 */
export const NewDoctor = v.object({
  name: text('name', 100),
  email: email('email'),
  specialty: text('specialty', 100),
  image: text('image', 500),
  workingDays: v.optional(workingDays, DEFAULT_WORKING_DAYS),
  hours: v.optional(hours, DEFAULT_HOURS),
});
export type NewDoctor = v.InferInput<typeof NewDoctor>;

/**
 * PUT /api/doctors/:id (admin): the fields to change; those not sent stay. A change that leaves
 * their upcoming bookings outside their days or hours, or with a treatment their new specialty
 * does not perform, is refused (409, StrandedConflict) unless `force: true`.
 */
export const DoctorChanges = v.pipe(
  v.object({
    name: v.optional(text('name', 100)),
    email: v.optional(email('email')),
    specialty: v.optional(text('specialty', 100)),
    /** A new photo: a URL answered by POST /api/images, used by no other doctor. */
    image: v.optional(text('image', 500)),
    workingDays: v.optional(workingDays),
    hours: v.optional(hours),
    /** Different hours on different days; instead of `workingDays` and `hours`. */
    weeklyHours: v.optional(weeklyHours),
    force,
  }),
  v.check(
    (body) => body.weeklyHours === undefined || (body.workingDays === undefined && body.hours === undefined),
    'Send either weeklyHours or workingDays and hours, not both',
  ),
);
export type DoctorChanges = v.InferInput<typeof DoctorChanges>;

export const DoctorAdded = Inserted;
export type DoctorAdded = Inserted;
export const DoctorUpdated = v.strictObject({ ...Modified.entries, ...ScheduleChangeOutcome });
export type DoctorUpdated = v.InferOutput<typeof DoctorUpdated>;
/** DELETE /api/doctors/:id[?force=true]: the upcoming bookings left without a doctor (with force). */
export const DoctorDeleted = v.strictObject({ ...Deleted.entries, ...ScheduleChangeOutcome });
export type DoctorDeleted = v.InferOutput<typeof DoctorDeleted>;

/** GET /api/team (anyone): the home page's "Our doctors". */
export const TeamMember = v.strictObject({
  _id: v.string(),
  name: v.string(),
  specialty: v.string(),
  /** Which treatments they perform: those of this specialty (an appointment option's `specialtyId`). */
  specialtyId: v.string(),
  image: v.string(),
});
export type TeamMember = v.InferOutput<typeof TeamMember>;

/** POST /api/images (multipart field `image`): the stored photo's URL, in the shape of the spec's image host. */
export const UploadedImage = v.strictObject({ success: v.literal(true), data: v.strictObject({ url: v.string() }) });
export type UploadedImage = v.InferOutput<typeof UploadedImage>;
