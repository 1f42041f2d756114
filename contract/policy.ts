import * as v from 'valibot';
import { wholeNumber } from './fields.ts';

/**
 * GET /api/clinic/policy (anyone): the clinic's rules for changing a booking online. A paid booking
 * is cancelled online, refunded, until `freeCancellationHours` before it starts; a patient
 * reschedules online until `rescheduleCutoffHours` before it starts (an admin does both at any time).
 */
export const CancellationPolicy = v.strictObject({
  freeCancellationHours: v.number(),
  rescheduleCutoffHours: v.number(),
  /**
   * In dollars, 0: none (issue 45). Charged once to the card on file of a booking made with one
   * (a treatment whose payment rule is 'card'), when it is marked missed, or cancelled by the
   * patient after `freeCancellationHours` before it; a patient accepts them when booking.
   */
  noShowFee: v.number(),
  lateCancelFee: v.number(),
});
export type CancellationPolicy = v.InferOutput<typeof CancellationPolicy>;

/**
 * GET /api/clinic/policy (anyone): the policy, and how long an unpaid booking of a priced treatment
 * holds its time: `unpaidHoldHours` after booking, but no later than `unpaidHoldHoursBeforeStart`
 * before the start (the exact deadline comes with each booking, `payBy`).
 */
export const BookingRules = v.strictObject({
  ...CancellationPolicy.entries,
  unpaidHoldHours: v.number(),
  unpaidHoldHoursBeforeStart: v.number(),
});
export type BookingRules = v.InferOutput<typeof BookingRules>;

const hours = (field: string) =>
  v.pipe(
    v.number(`${field} must be a number of hours`),
    v.integer(`${field} must be a whole number of hours`),
    v.minValue(0, `${field} cannot be negative`),
    v.maxValue(720, `${field} must be at most 720 (30 days)`),
  );

/**
 * PUT /api/clinic/policy (admin): whole hours, 0 (until the start) to 720 (30 days), and the fees in
 * whole dollars, 0 (none) to 1000; a field left out stays as it is. A new fee applies to bookings
 * made after it: each booking keeps the fees its patient accepted.
 */
export const PolicyChange = v.pipe(
  v.object({
    freeCancellationHours: v.optional(hours('freeCancellationHours')),
    rescheduleCutoffHours: v.optional(hours('rescheduleCutoffHours')),
    noShowFee: v.optional(wholeNumber('noShowFee', 'dollars', 0, 1000)),
    lateCancelFee: v.optional(wholeNumber('lateCancelFee', 'dollars', 0, 1000)),
  }),
  v.check(
    (change) => Object.values(change).some((value) => value !== undefined),
    'Send freeCancellationHours, rescheduleCutoffHours, noShowFee or lateCancelFee',
  ),
);
export type PolicyChange = v.InferInput<typeof PolicyChange>;

export const PolicySaved = v.strictObject({
  acknowledged: v.literal(true),
  message: v.string(),
  ...CancellationPolicy.entries,
});
export type PolicySaved = v.InferOutput<typeof PolicySaved>;
