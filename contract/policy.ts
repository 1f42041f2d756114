import * as v from 'valibot';

/** GET /api/clinic/policy (anyone): a paid booking is cancelled online, refunded, until this many hours before it starts. */
export const CancellationPolicy = v.strictObject({ freeCancellationHours: v.number() });
export type CancellationPolicy = v.InferOutput<typeof CancellationPolicy>;

/** PUT /api/clinic/policy (admin): whole hours, 0 (until the start) to 720 (30 days). */
export const PolicyChange = v.object({
  freeCancellationHours: v.pipe(
    v.number('freeCancellationHours must be a number of hours'),
    v.integer('freeCancellationHours must be a whole number of hours'),
    v.minValue(0, 'freeCancellationHours cannot be negative'),
    v.maxValue(720, 'freeCancellationHours must be at most 720 (30 days)'),
  ),
});
export type PolicyChange = v.InferInput<typeof PolicyChange>;

export const PolicySaved = v.strictObject({
  acknowledged: v.literal(true),
  message: v.string(),
  freeCancellationHours: v.number(),
});
export type PolicySaved = v.InferOutput<typeof PolicySaved>;
