import * as v from 'valibot';
import { oneTime, TIME_FIELDS } from './bookings.ts';
import { isoDate } from './fields.ts';
import { BookingForm } from './forms.ts';

/**
 * A link in a message, `<origin>/l/<token>`: what it is for. `booking` links (a reminder's "I'm
 * coming", "Please call me", "Cancel", and "Fill in your forms") name their booking; `recall` links
 * propose three free times near the due date (the patient's last doctor first). Opening it (GET)
 * changes nothing. A `forms` token also opens the kiosk: the front desk's tablet, handed to the
 * patient, holds nothing but it.
 */
export const LinkAction = v.picklist(['confirm', 'callback', 'cancel', 'book', 'forms']);
export type LinkAction = v.InferOutput<typeof LinkAction>;

const LinkBooking = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  /** "PP" date, ISO date and slot label, as the booking shows them. */
  date: v.string(),
  appointmentDate: v.string(),
  slot: v.string(),
  doctor: v.nullable(v.string()),
  confirmation: v.picklist(['unconfirmed', 'confirmed', 'callback']),
  /** Cancelling now is free (a paid booking is refunded in full), or the clinic asks for a call. */
  canCancel: v.boolean(),
  clinicPhone: v.string(),
});

export const Proposal = v.strictObject({
  appointmentDate: v.string(),
  date: v.string(),
  slot: v.string(),
  doctor: v.nullable(v.string()),
});
export type Proposal = v.InferOutput<typeof Proposal>;

export const LinkInfo = v.variant('kind', [
  v.strictObject({ kind: v.literal('booking'), action: LinkAction, patientName: v.string(), booking: LinkBooking }),
  v.strictObject({
    kind: v.literal('recall'),
    action: v.literal('book'),
    patientName: v.string(),
    recall: v.strictObject({ _id: v.string(), treatment: v.string(), dueDate: v.string(), price: v.number() }),
    proposals: v.array(Proposal),
  }),
]);
export type LinkInfo = v.InferOutput<typeof LinkInfo>;

/** The answer of a link's action: what the patient reads. */
export const LinkDone = v.strictObject({ acknowledged: v.literal(true), message: v.string() });
export type LinkDone = v.InferOutput<typeof LinkDone>;

/** POST /api/links/:token/book: one of the proposed times (or another free one). */
export const LinkBookingChoice = v.pipe(
  v.object({ appointmentDate: isoDate('appointmentDate'), ...TIME_FIELDS }),
  oneTime(),
);
export const LinkBooked = v.strictObject({
  acknowledged: v.literal(true),
  insertedId: v.string(),
  message: v.string(),
  /** Unpaid and priced: the deadline to pay online (ISO, UTC). */
  payBy: v.nullable(v.string()),
  /** Who will see the patient, and the policy's deadlines for this visit (ISO, UTC), as a booking's confirmation says them. */
  doctor: v.nullable(v.string()),
  freeCancellationUntil: v.string(),
  rescheduleUntil: v.string(),
});
export type LinkBooked = v.InferOutput<typeof LinkBooked>;

/** GET/PUT /api/users/me/sms: the patient's mobile number (E.164 after cleaning) and consent to SMS. */
export const SmsSetting = v.strictObject({
  phone: v.nullable(v.string()),
  smsConsent: v.boolean(),
  /** The patient replied STOP (START undoes it). */
  stopped: v.boolean(),
});
export type SmsSetting = v.InferOutput<typeof SmsSetting>;

/** A mobile number as people type it: spaces, dashes, dots and brackets are dropped; "+" and 8-15 digits remain. */
export const MOBILE_NUMBER = /^\+[1-9]\d{7,14}$/;
export const cleanPhone = (input: string) => input.replace(/[\s().-]/g, '');

export const SmsSettingChange = v.object({
  phone: v.nullable(
    v.pipe(
      v.string('phone must be text or null'),
      v.maxLength(40, 'phone must be at most 40 characters'),
      v.transform(cleanPhone),
      v.regex(MOBILE_NUMBER, 'phone must be a mobile number with its country code, like +1 555 010 2026'),
    ),
  ),
  smsConsent: v.boolean('smsConsent must be true or false'),
});
export type SmsSettingChange = v.InferInput<typeof SmsSettingChange>;

/**
 * GET /api/links/:token/forms (a forms link, or the kiosk's token): the visit and the forms it
 * needs, for whoever holds the token, without an account.
 */
export const LinkForms = v.strictObject({
  patientName: v.string(),
  treatment: v.string(),
  /** "PP" date and slot label. */
  appointmentDate: v.string(),
  slot: v.string(),
  forms: v.array(BookingForm),
});
export type LinkForms = v.InferOutput<typeof LinkForms>;

/** POST /api/bookings/:id/kiosk (admin): the token the kiosk holds, good for that visit's forms only, until `expiresAt`. */
export const KioskStarted = v.strictObject({ token: v.string(), expiresAt: v.string() });
export type KioskStarted = v.InferOutput<typeof KioskStarted>;
