import * as v from 'valibot';

/**
 * GET /api/appointmentOptions?date=: the date as "Nov 21, 2026" (date-fns PP) or "2026-11-21". The
 * Worker parses it and answers 400 when it is missing or malformed.
 */
export const AppointmentOptionsQuery = v.object({ date: v.optional(v.string()) });

/** A treatment with its still-free slots on one date; the price in dollars. */
export const AppointmentOption = v.strictObject({
  _id: v.string(),
  name: v.string(),
  slots: v.array(v.string()),
  price: v.number(),
});
export type AppointmentOption = v.InferOutput<typeof AppointmentOption>;

/** A treatment's name, which is a doctor's possible specialty. */
export const Specialty = v.strictObject({ _id: v.string(), name: v.string() });
export type Specialty = v.InferOutput<typeof Specialty>;
