import * as v from 'valibot';
import { PAYMENT_RULES } from './payment-rules.ts';

/**
 * GET /api/appointmentOptions?date=&doctorId=: the date as "Nov 21, 2026" (date-fns PP) or "2026-11-21". The
 * Worker parses it and answers 400 when it is missing or malformed. With `doctorId`, only that doctor's
 * treatments and free times (404 for no such doctor); without it, any doctor's.
 */
export const AppointmentOptionsQuery = v.object({ date: v.optional(v.string()), doctorId: v.optional(v.string()) });

/**
 * An active treatment with its still-free start times on one date, each as "10.00 AM - 11.30 AM"
 * (its start and end); the price in dollars.
 */
export const AppointmentOption = v.strictObject({
  _id: v.string(),
  name: v.string(),
  /** The free times by their labels, "10.00 AM - 10.30 AM" (what the spec shows). */
  slots: v.array(v.string()),
  /** The same times by their starts, "10:00" (24-hour), one per label in `slots`, in the same order. */
  starts: v.array(v.string()),
  price: v.number(),
  durationMinutes: v.number(),
  /** Who may perform it: the doctors of this specialty (GET /api/team's `specialtyId`). */
  specialtyId: v.string(),
  /** How it is paid when booked online (contract/treatments.ts PAYMENT_RULES), shown before booking. */
  payment: v.picklist(PAYMENT_RULES),
  /** What is paid online for a deposit, in dollars (null for every other rule). */
  deposit: v.nullable(v.number()),
  /**
   * Why it cannot be booked at all that day: the clinic is closed (a closure, or no hours that
   * weekday) or every doctor who could see it is away; with the next day the clinic opens (null: none
   * within the booking horizon, or a doctor away). Null when it is open (its times may all be taken).
   */
  closed: v.nullable(v.strictObject({ reason: v.string(), nextOpenDate: v.nullable(v.string()) })),
});
export type AppointmentOption = v.InferOutput<typeof AppointmentOption>;

/** A specialty (General Dentistry, Endodontics…): who may perform a treatment; every doctor has one. */
export const Specialty = v.strictObject({ _id: v.string(), name: v.string() });
export type Specialty = v.InferOutput<typeof Specialty>;
