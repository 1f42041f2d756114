import * as v from 'valibot';
import { Inserted, Modified } from './answers.ts';
import { singleLine, text } from './fields.ts';
import { RefundState } from './payments.ts';

/** POST /api/bookings. Name, email and price are the server's, never the client's. */
export const NewBooking = v.object({
  treatment: text('treatment', 100),
  appointmentDate: v.pipe(v.string('appointmentDate is required'), singleLine('appointmentDate')),
  slot: text('slot', 40),
  phone: v.optional(
    v.pipe(
      v.string('phone must be text'),
      singleLine('phone'),
      v.trim(),
      v.maxLength(40, 'phone must be at most 40 characters'),
    ),
    '',
  ),
  /** When sent, it must be the signed-in patient's own (403 otherwise). */
  email: v.optional(v.pipe(v.string('email must be text'), singleLine('email'))),
});
/** What the spec's booking form sends: also `patientName` and `price`, which the Worker ignores. */
export type NewBooking = v.InferInput<typeof NewBooking> & { patientName?: string; price?: number };

export const BookingCreated = v.strictObject({ ...Inserted.entries, message: v.string() });
export type BookingCreated = v.InferOutput<typeof BookingCreated>;

/** GET /api/bookings?email=: a patient's own email (the default), or anyone's for an admin. */
export const BookingsQuery = v.object({ email: v.optional(v.string()) });

/** A booking as every booking route answers it. */
export const Booking = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  treatmentId: v.string(),
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: v.string(),
  /** ISO date, e.g. "2026-11-21". */
  date: v.string(),
  slot: v.string(),
  /** When the appointment starts (ISO, UTC). */
  startsAt: v.string(),
  patientName: v.string(),
  /** The same as patientName: the spec's payment screen reads `patient`. */
  patient: v.string(),
  email: v.string(),
  phone: v.string(),
  /** In dollars. */
  price: v.number(),
  paid: v.boolean(),
  /** An unpaid booking of a priced treatment is released unless paid by then (ISO, UTC); null once paid or when free. */
  payBy: v.nullable(v.string()),
  /** How long it lasts; `slot` shows its start and end ("10.00 AM - 11.30 AM"). */
  durationMinutes: v.number(),
  /**
   * The doctor who will see the patient (the photo's URL in `image`); null when the booking has none
   * (its doctor was deleted, or it was made before doctors were assigned and none was free).
   */
  doctor: v.nullable(v.strictObject({ name: v.string(), image: v.string() })),
});
export type Booking = v.InferOutput<typeof Booking>;

/** DELETE /api/bookings/:id: an admin chooses whether a paid booking is refunded (the default: it is). */
export const CancelQuery = v.object({
  refund: v.optional(v.picklist(['true', 'false'], 'refund must be "true" or "false"')),
});

/** `refund`: the paid booking's refund, when it is refunded. */
export const BookingCancelled = v.strictObject({ ...Modified.entries, refund: v.optional(RefundState) });
export type BookingCancelled = v.InferOutput<typeof BookingCancelled>;

/** An upcoming booking that a schedule change would leave without a doctor or chair, or outside the clinic's hours. */
export const StrandedBooking = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: v.string(),
  /** ISO date, e.g. "2026-11-21". */
  date: v.string(),
  slot: v.string(),
  patientName: v.string(),
  email: v.string(),
  phone: v.string(),
  /** The doctor's name, or null when the booking has none. */
  doctor: v.nullable(v.string()),
});
export type StrandedBooking = v.InferOutput<typeof StrandedBooking>;

/**
 * The 409 answer of a schedule change (closure, opening hours, a doctor's days or hours, deleting a
 * doctor or a chair) that would strand upcoming bookings: nothing changed. Send it again with
 * `force: true` (for DELETE: `?force=true`) to make the change anyway; the bookings are kept,
 * marked for the front desk's review, and listed in the answer.
 */
export const StrandedConflict = v.strictObject({
  acknowledged: v.literal(false),
  message: v.string(),
  stranded: v.array(StrandedBooking),
});
export type StrandedConflict = v.InferOutput<typeof StrandedConflict>;

/** `?force=true` on a DELETE that would strand upcoming bookings (see StrandedConflict). */
export const ForceQuery = v.object({
  force: v.optional(v.picklist(['true', 'false'], 'force must be "true" or "false"')),
});
