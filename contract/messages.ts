import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { isoDate, text, wholeNumber } from './fields.ts';

/** GET/PUT /api/users/me/reminders: whether the signed-in patient gets appointment reminders by mail. */
export const ReminderSetting = v.strictObject({ remindersOn: v.boolean('remindersOn must be true or false') });
export type ReminderSetting = v.InferOutput<typeof ReminderSetting>;

export const ReminderSettingSaved = v.strictObject({ acknowledged: v.literal(true), remindersOn: v.boolean() });
export type ReminderSettingSaved = v.InferOutput<typeof ReminderSettingSaved>;

/** The clinic's message settings (admin): the name, address and phone every mail shows, the 2-hour reminder, how long a waitlist offer holds its time. */
export const MessageSettings = v.strictObject({
  clinicName: v.string(),
  clinicAddress: v.string(),
  clinicPhone: v.string(),
  secondReminder: v.boolean(),
  offerHoldMinutes: v.number(),
  /** How many hours before an unpaid booking's hold ends the patient is mailed to pay soon (0: never). */
  paySoonHours: v.number(),
  /** The recall messages, in days from the due date (default 14 days before, on the day, 30 days after). */
  recallSteps: v.array(v.number()),
  /** The doctors' calendar feeds name the treatment and the patient (off by default: a calendar may be shared). */
  doctorFeedNames: v.boolean(),
});
export type MessageSettings = v.InferOutput<typeof MessageSettings>;

/** PUT /api/messages/settings: the fields to change. */
export const MessageSettingsChange = v.object({
  clinicName: v.optional(text('clinicName', 100)),
  clinicAddress: v.optional(text('clinicAddress', 200)),
  clinicPhone: v.optional(text('clinicPhone', 40)),
  secondReminder: v.optional(v.boolean('secondReminder must be true or false')),
  doctorFeedNames: v.optional(v.boolean('doctorFeedNames must be true or false')),
  offerHoldMinutes: v.optional(wholeNumber('offerHoldMinutes', 'minutes', 5, 1440)),
  paySoonHours: v.optional(wholeNumber('paySoonHours', 'hours', 0, 48)),
  recallSteps: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.number('recallSteps must be numbers of days'),
          v.integer('recallSteps must be whole numbers of days'),
          v.minValue(-90, 'recallSteps must be -90 to 180 days from the due date'),
          v.maxValue(180, 'recallSteps must be -90 to 180 days from the due date'),
        ),
        'recallSteps must be a list of days',
      ),
      v.minLength(1, 'recallSteps must have 1 to 5 steps'),
      v.maxLength(5, 'recallSteps must have 1 to 5 steps'),
      v.check((steps) => new Set(steps).size === steps.length, 'recallSteps must not repeat a day'),
      v.transform((steps) => [...steps].sort((a, b) => a - b)),
    ),
  ),
});
export type MessageSettingsChange = v.InferInput<typeof MessageSettingsChange>;

/** The longest range of days one waitlist entry may cover. */
export const MAX_WAITLIST_DAYS = 14;

/** POST /api/waitlist: wait for a treatment (its id or name) on `from`, or on any day from `from` to `to`. */
export const NewWaitlistEntry = v.pipe(
  v.object({ treatment: text('treatment', 100), from: isoDate('from'), to: v.optional(isoDate('to')) }),
  v.check((entry) => entry.to === undefined || entry.to >= entry.from, 'to must not be before from'),
  v.check(
    (entry) =>
      entry.to === undefined ||
      Date.parse(`${entry.to}T00:00:00Z`) - Date.parse(`${entry.from}T00:00:00Z`) < MAX_WAITLIST_DAYS * 86_400_000,
    `A waitlist entry covers at most ${MAX_WAITLIST_DAYS} days`,
  ),
);
export type NewWaitlistEntry = v.InferInput<typeof NewWaitlistEntry>;

export const WaitlistJoined = v.strictObject({ ...Inserted.entries, message: v.string() });
export type WaitlistJoined = v.InferOutput<typeof WaitlistJoined>;

/** An open offer of a freed time, as an entry lists it. */
const OpenOffer = v.strictObject({
  _id: v.string(),
  /** ISO date and "PP" date. */
  date: v.string(),
  appointmentDate: v.string(),
  slot: v.string(),
  /** Until when the time is held (ISO, UTC). */
  expiresAt: v.string(),
});

/** GET /api/waitlist: the signed-in patient's entries still waiting, oldest first. */
export const WaitlistEntry = v.strictObject({
  _id: v.string(),
  treatmentId: v.string(),
  treatment: v.string(),
  /** ISO dates (the same when one day). */
  from: v.string(),
  to: v.string(),
  createdAt: v.string(),
  offer: v.nullable(OpenOffer),
});
export type WaitlistEntry = v.InferOutput<typeof WaitlistEntry>;

export const WaitlistLeft = v.strictObject({ acknowledged: v.literal(true), deletedCount: v.number() });
export type WaitlistLeft = v.InferOutput<typeof WaitlistLeft>;

/** GET /api/waitlist/offers/:id: an offer, as its patient sees it. */
export const WaitlistOffer = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  date: v.string(),
  appointmentDate: v.string(),
  slot: v.string(),
  startsAt: v.string(),
  durationMinutes: v.number(),
  price: v.number(),
  doctor: v.nullable(v.string()),
  expiresAt: v.string(),
  /** 'expired' once its time has passed, even before the cron marks it. */
  status: v.picklist(['open', 'accepted', 'declined', 'expired', 'withdrawn']),
  bookingId: v.nullable(v.string()),
});
export type WaitlistOffer = v.InferOutput<typeof WaitlistOffer>;

export const OfferAccepted = v.strictObject({ ...Inserted.entries, message: v.string() });
export type OfferAccepted = v.InferOutput<typeof OfferAccepted>;

export const OfferDeclined = v.strictObject({ acknowledged: v.literal(true), message: v.string() });
export type OfferDeclined = v.InferOutput<typeof OfferDeclined>;

/**
 * GET /api/events/dead (admin): a change whose consequences (a mail, a text, the waitlist) could not
 * be carried out after the queue's retries, in words; replayed with POST /api/events/dead/:seq/replay.
 */
export const DeadEvent = v.strictObject({
  seq: v.number(),
  /** The event's type, e.g. "booking.placed". */
  type: v.string(),
  /** What happened, in words: "Teeth Cleaning for Jamie Patient on Dec 3 was booked". */
  what: v.string(),
  /** When it happened, and when the queue gave up on it (ISO instants). */
  at: v.string(),
  failedAt: v.string(),
  attempts: v.number(),
});
export type DeadEvent = v.InferOutput<typeof DeadEvent>;

/** POST /api/events/dead/:seq/replay: the event went to the queue again. */
export const EventReplayed = v.strictObject({ acknowledged: v.literal(true), message: v.string() });
export type EventReplayed = v.InferOutput<typeof EventReplayed>;
