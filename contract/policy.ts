import * as v from 'valibot';

/**
 * GET /api/clinic/policy (anyone): the clinic's rules for changing a booking online. A paid booking
 * is cancelled online, refunded, until `freeCancellationHours` before it starts; a patient
 * reschedules online until `rescheduleCutoffHours` before it starts (an admin does both at any time).
 */
export const CancellationPolicy = v.strictObject({
  freeCancellationHours: v.number(),
  rescheduleCutoffHours: v.number(),
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

/** PUT /api/clinic/policy (admin): whole hours, 0 (until the start) to 720 (30 days); a field left out stays as it is. */
export const PolicyChange = v.pipe(
  v.object({
    freeCancellationHours: v.optional(hours('freeCancellationHours')),
    rescheduleCutoffHours: v.optional(hours('rescheduleCutoffHours')),
  }),
  v.check(
    (change) => change.freeCancellationHours !== undefined || change.rescheduleCutoffHours !== undefined,
    'Send freeCancellationHours, rescheduleCutoffHours or both',
  ),
);
export type PolicyChange = v.InferInput<typeof PolicyChange>;

export const PolicySaved = v.strictObject({
  acknowledged: v.literal(true),
  message: v.string(),
  ...CancellationPolicy.entries,
});
export type PolicySaved = v.InferOutput<typeof PolicySaved>;
