import * as v from 'valibot';
import { daysBetween, isoDate } from './fields.ts';

/** The longest range GET /api/insights answers, in days (both ends included). */
export const MAX_INSIGHTS_RANGE_DAYS = 366;

/** GET /api/insights?from=&to= (admin): dates on the clinic's calendar, both ends included. */
export const InsightsQuery = v.pipe(
  v.object({ from: isoDate('from'), to: isoDate('to') }),
  v.check((q) => q.from <= q.to, 'to must be the same day as from or later'),
  v.check(
    (q) => daysBetween(q.from, q.to) < MAX_INSIGHTS_RANGE_DAYS,
    `A range may cover at most ${MAX_INSIGHTS_RANGE_DAYS} days`,
  ),
);

/** One doctor's or chair's time: the minutes booked, and the minutes it was open. */
const ResourceTime = v.strictObject({
  _id: v.string(),
  name: v.string(),
  bookedMinutes: v.number(),
  openMinutes: v.number(),
});

/**
 * The figures of a day, or of the whole range. Every booking counts on its visit's date but
 * `made` (on the date it was made). Booked minutes are those of the visits that kept their time
 * (active, attended and no-show); open minutes those of the clinic's hours on its open days (a
 * doctor's: their hours within the clinic's, on their working days), closures and days off left out.
 */
const Figures = {
  /** The chairs' booked and open minutes together: how full the clinic was. */
  bookedMinutes: v.number(),
  openMinutes: v.number(),
  doctors: v.array(ResourceTime),
  chairs: v.array(ResourceTime),
  /** Bookings made that day (or in the range), moves left out: a move is counted in `moved`. */
  made: v.number(),
  /** Active and attended bookings. */
  visits: v.number(),
  attended: v.number(),
  noShows: v.number(),
  cancelled: v.number(),
  /** Who cancelled: the patient, the clinic, or nobody (the hold ran out unpaid). */
  cancelledBy: v.strictObject({ patient: v.number(), clinic: v.number(), unpaid: v.number() }),
  /** Visits moved to another time (counted on the date they were moved from). */
  moved: v.number(),
  /** In dollars: taken for the visits, given back (refunds done), and still to pay (active and attended, unpaid). */
  revenue: v.number(),
  refunded: v.number(),
  outstanding: v.number(),
  /** Waitlist offers of a time that day, and those the patient took. */
  offers: v.number(),
  offersAccepted: v.number(),
};

export const InsightsDay = v.strictObject({ date: v.string(), ...Figures });
export type InsightsDay = v.InferOutput<typeof InsightsDay>;

export const InsightsAnswer = v.strictObject({
  from: v.string(),
  to: v.string(),
  /** The clinic's time zone (IANA): every date and hour of the answer is on its clock. */
  timeZone: v.string(),
  totals: v.strictObject({
    ...Figures,
    /** No-shows over the visits marked (attended and no-show), or null when none was marked. */
    noShowRate: v.nullable(v.number()),
    /** Days between the day a visit was booked and its day (nearest rank), or null without visits. */
    leadTimeDays: v.nullable(v.strictObject({ median: v.number(), p90: v.number() })),
    /** Recalls due in the range, those booked, and the share booked (null when none was due). */
    recalls: v.strictObject({ due: v.number(), booked: v.number(), rate: v.nullable(v.number()) }),
  }),
  days: v.array(InsightsDay),
  /** The chairs' booked and open minutes by weekday (0 Sunday) and hour of the clinic's clock, open hours only. */
  hours: v.array(
    v.strictObject({ weekday: v.number(), hour: v.number(), bookedMinutes: v.number(), openMinutes: v.number() }),
  ),
});
export type InsightsAnswer = v.InferOutput<typeof InsightsAnswer>;
