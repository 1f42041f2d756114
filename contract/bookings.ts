import * as v from 'valibot';
import { Inserted, Modified } from './answers.ts';
import { email, noControlCharacters, page, singleLine, text } from './fields.ts';
import { LANGUAGES } from './languages.ts';
import { PAYMENT_RULES } from './payment-rules.ts';
import { RefundState } from './payments.ts';
import { startMinuteOf } from './slot-label.ts';

const appointmentDate = v.pipe(v.string('appointmentDate is required'), singleLine('appointmentDate'));
/** A time by its label, as GET /api/appointmentOptions lists it in `slots`: "10.00 AM - 10.30 AM". */
const slot = v.optional(text('slot', 40));
/** A time by its start, as GET /api/appointmentOptions lists it in `starts`: "10:00" (24-hour clock). */
const start = v.optional(
  v.pipe(
    v.string('start must be a time like "10:00"'),
    v.check((value: string) => startMinuteOf(value) !== null, 'start must be a time like "10:00" (24-hour clock)'),
  ),
);
/** Every booking write names its time once: by its start (`start`) or by its label (`slot`). */
export const TIME_FIELDS = { slot, start };
export function oneTime<T extends { slot?: string; start?: string }>() {
  return v.check(
    (body: T) => (body.slot === undefined) !== (body.start === undefined),
    (issue) =>
      (issue.input as T).slot === undefined
        ? 'slot is required (or its start, "10:00")'
        : 'Send the time once: start ("10:00") or slot ("10.00 AM - 10.30 AM"), not both',
  );
}
const phone = v.pipe(
  v.string('phone must be text'),
  singleLine('phone'),
  v.trim(),
  v.maxLength(40, 'phone must be at most 40 characters'),
);

/** POST /api/bookings. Name, email and price are the server's, never the client's. */
export const NewBooking = v.pipe(
  v.object({
    treatment: text('treatment', 100),
    appointmentDate,
    ...TIME_FIELDS,
    phone: v.optional(phone, ''),
    /** When sent, it must be the signed-in patient's own (403 otherwise). */
    email: v.optional(v.pipe(v.string('email must be text'), singleLine('email'))),
    /** Who the visit is for: the signed-in patient (the default) or one of their dependants (403 otherwise). */
    patientId: v.optional(text('patientId', 100)),
    /** The doctor the patient asks for (GET /api/doctors' `_id`); any free one of the treatment's specialty otherwise. */
    doctorId: v.optional(text('doctorId', 100)),
  }),
  oneTime(),
);
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
  /** Booked at the front desk to be paid at the clinic: it is never released unpaid. */
  payAtClinic: v.boolean(),
  /**
   * How it is paid (contract/treatments.ts PAYMENT_RULES): 'full' online before `payBy`, 'deposit'
   * (`deposit` online before `payBy`, the rest at the desk), 'card' (kept with a card on file; the
   * fees accepted at booking may be charged to it), 'clinic' (at the desk).
   */
  paymentRule: v.picklist(PAYMENT_RULES),
  /** What is paid online for a deposit, in dollars (null for every other rule). */
  deposit: v.nullable(v.number()),
  /** The fees its patient accepted when booking with a card on file, in dollars (0: none). */
  noShowFee: v.number(),
  lateCancelFee: v.number(),
  /** The rest after a paid deposit, still to pay at the clinic, in dollars (0: none). */
  balanceDue: v.number(),
  /** How long it lasts; `slot` shows its start and end ("10.00 AM - 11.30 AM"). */
  durationMinutes: v.number(),
  /**
   * The doctor who will see the patient (the photo's URL in `image`; `_id` to ask for them again);
   * null when the booking has none (its doctor was deleted, or it was made before doctors were
   * assigned and none was free).
   */
  doctor: v.nullable(v.strictObject({ _id: v.string(), name: v.string(), image: v.string() })),
  /**
   * 'active' (upcoming or past), 'attended' or 'no_show' once the clinic marked it, or 'cancelled'
   * (a patient's list shows only the upcoming ones the clinic cancelled, with `cancelNote`).
   */
  status: v.picklist(['active', 'cancelled', 'attended', 'no_show']),
  /** Why the clinic cancelled it, in the clinic's words; null otherwise. */
  cancelNote: v.nullable(v.string()),
  /**
   * Until when its patient can cancel it free (ISO, UTC), under the clinic's policy: a paid booking
   * is refunded in full until then; after, only the clinic can cancel it.
   */
  freeCancellationUntil: v.string(),
  /** Until when its patient can move it online (ISO, UTC); after, by calling the clinic. */
  rescheduleUntil: v.string(),
  /** The family visit it was booked in with other members of the account (one payment can pay them all); null otherwise. */
  familyVisitId: v.nullable(v.string()),
  /** How many of the forms it needs are still to fill or renew (docs/product-booking.md#forms). */
  formsToFill: v.number(),
});
export type Booking = v.InferOutput<typeof Booking>;
export type BookingStatus = Booking['status'];

/** GET /api/bookings/history?page= (the patient): their past and cancelled visits, newest first, 20 a page. */
export const HistoryQuery = v.object({ page });

/** A visit that is over or off: what became of it, its refund and whether it has a receipt. */
export const PastBooking = v.strictObject({
  ...Booking.entries,
  /** Who cancelled it: the patient, the clinic ('admin'), or nobody paid in time ('unpaid'); null otherwise. */
  cancelReason: v.nullable(v.picklist(['patient', 'admin', 'unpaid'])),
  /** The refund of its payment, where one was given back or is on its way. */
  refund: v.nullable(RefundState),
  /** A payment was taken for it: its receipt is at GET /api/bookings/:id/receipt. */
  hasReceipt: v.boolean(),
});
export type PastBooking = v.InferOutput<typeof PastBooking>;

export const BookingHistory = v.strictObject({
  bookings: v.array(PastBooking),
  /** The next page to ask for, or null on the last one. */
  nextPage: v.nullable(v.number()),
});
export type BookingHistory = v.InferOutput<typeof BookingHistory>;

/** DELETE /api/bookings/:id: an admin chooses whether a paid booking is refunded (the default: it is). */
export const CancelQuery = v.object({
  refund: v.optional(v.picklist(['true', 'false'], 'refund must be "true" or "false"')),
});

/** `refund`: the paid booking's refund, when it is refunded. */
export const BookingCancelled = v.strictObject({ ...Modified.entries, refund: v.optional(RefundState) });
export type BookingCancelled = v.InferOutput<typeof BookingCancelled>;

/**
 * POST /api/bookings/:id/reschedule: the booking's new date and start, a slot of its treatment as
 * GET /api/appointmentOptions lists them. Its owner may move it until the clinic's cutoff before it
 * starts (`rescheduleCutoffHours` of GET /api/clinic/policy), an admin at any time.
 */
export const Reschedule = v.pipe(v.object({ appointmentDate, ...TIME_FIELDS }), oneTime());
export type Reschedule = v.InferInput<typeof Reschedule>;

/** The booking that replaced the moved one (`insertedId`); the old one is kept as moved. */
export const Rescheduled = v.strictObject({ ...Inserted.entries, message: v.string() });
export type Rescheduled = v.InferOutput<typeof Rescheduled>;

/**
 * The booking's version as the front desk last saw it (ScheduleEntry.version): a mark or a note
 * written offline carries it, and is refused in plain words when the visit changed meanwhile.
 */
const seenVersion = v.optional(
  v.pipe(v.number('version must be a whole number'), v.integer('version must be a whole number'), v.minValue(1)),
);

/** POST /api/bookings/:id/attendance (admin, once the appointment has started). */
export const Attendance = v.object({
  status: v.picklist(['attended', 'no_show'], 'status must be "attended" or "no_show"'),
  version: seenVersion,
  /** Marking a no-show: waive the no-show fee its patient accepted (nothing is charged). */
  waiveFee: v.optional(v.boolean('waiveFee must be true or false'), false),
});
export type Attendance = v.InferInput<typeof Attendance>;
export const AttendanceSaved = Modified;
export type AttendanceSaved = Modified;

/** The longest note the front desk may write on a visit. */
export const MAX_DESK_NOTE = 500;

/** PUT /api/bookings/:id/note (admin): the front desk's note on a visit; empty removes it. */
export const DeskNote = v.object({
  note: v.pipe(
    v.string('note must be text'),
    noControlCharacters('note'),
    v.trim(),
    v.maxLength(MAX_DESK_NOTE, `note must be at most ${MAX_DESK_NOTE} characters`),
  ),
  version: seenVersion,
  /**
   * The version of the note it was written on (the schedule's `noteVersion`): once another note was
   * saved meanwhile, this one is refused (409) and the answer holds the current `note`.
   */
  noteVersion: v.optional(
    v.pipe(
      v.number('noteVersion must be a whole number'),
      v.integer('noteVersion must be a whole number'),
      v.minValue(0),
    ),
  ),
});
export type DeskNote = v.InferInput<typeof DeskNote>;

/**
 * POST /api/bookings/:id/cancel (admin): cancels for the patient, who sees `reason` in My
 * Appointments and in the cancellation mail. `refund` (default true): a paid booking is refunded.
 */
export const CancelForPatient = v.object({
  reason: text('reason', 300),
  refund: v.optional(v.boolean('refund must be true or false')),
});
export type CancelForPatient = v.InferInput<typeof CancelForPatient>;

/**
 * POST /api/phone-bookings (admin): a booking made by the front desk for an existing patient
 * (`patientId`) or a new one (`patient`: a record without a password, which the patient claims by
 * signing up with that email and verifying it; without an email, the patient gets no mail and the
 * phone is how the clinic reaches them; `language` is that of its mails and texts). The rules of a patient's own booking hold, but:
 * `payment` is 'clinic' by default (paid at the desk, never released unpaid) or 'online' (held
 * until the hold rules' deadline, which the answer gives); `doctorId` picks the doctor the caller
 * asks for (any free one otherwise); `limitReason` books past the patient's unpaid limit, the
 * reason going in the audit trail.
 */
export const PhoneBooking = v.pipe(
  v.object({
    patientId: v.optional(text('patientId', 100)),
    patient: v.optional(
      v.object(
        {
          name: text('patient.name', 100),
          email: v.optional(email('patient.email')),
          /** Of the patient's mails and texts (docs/languages.md); English when not given. */
          language: v.optional(v.picklist(LANGUAGES, `patient.language must be one of ${LANGUAGES.join(', ')}`), 'en'),
        },
        'patient must be {name, email?, language?}',
      ),
    ),
    phone: text('phone', 40),
    treatment: text('treatment', 100),
    appointmentDate,
    ...TIME_FIELDS,
    doctorId: v.optional(text('doctorId', 100)),
    payment: v.optional(v.picklist(['clinic', 'online'], 'payment must be "clinic" or "online"'), 'clinic'),
    limitReason: v.optional(text('limitReason', 300)),
  }),
  v.check(
    (body) => (body.patientId === undefined) !== (body.patient === undefined),
    'Send either patientId (an existing patient) or patient (a new one), not both',
  ),
  oneTime(),
);
export type PhoneBooking = v.InferInput<typeof PhoneBooking>;

export const PhoneBooked = v.strictObject({
  ...Inserted.entries,
  message: v.string(),
  patientId: v.string(),
  /** With payment 'online': the deadline to pay, after which the time is released (ISO, UTC); else null. */
  payBy: v.nullable(v.string()),
});
export type PhoneBooked = v.InferOutput<typeof PhoneBooked>;

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

/** A waitlist offer a schedule change withdrew: its held time was freed and its patient told by mail. */
export const WithdrawnOffer = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  appointmentDate: v.string(),
  date: v.string(),
  slot: v.string(),
  patientName: v.string(),
  email: v.string(),
});
export type WithdrawnOffer = v.InferOutput<typeof WithdrawnOffer>;

/**
 * What a schedule change left for the front desk, in its answer: the upcoming bookings it kept but
 * no longer fit (marked for review; each patient is told the clinic will call), and the open
 * waitlist offers it withdrew.
 */
export const ScheduleChangeOutcome = {
  stranded: v.array(StrandedBooking),
  withdrawnOffers: v.array(WithdrawnOffer),
};

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

/**
 * `?dryRun=1` on a schedule change that may strand upcoming bookings: nothing is changed, and the
 * answer (200, StrandDryRun) lists the bookings it would strand, so a screen can ask before it
 * sends a change the server would refuse.
 */
export const DryRunQuery = v.object({
  dryRun: v.optional(v.picklist(['1'], 'dryRun must be "1"')),
});

/** The answer to a dry run: nothing changed; `stranded` the bookings the change would strand (none: it fits). */
export const StrandDryRun = v.strictObject({
  acknowledged: v.literal(false),
  dryRun: v.literal(true),
  message: v.string(),
  stranded: v.array(StrandedBooking),
});
export type StrandDryRun = v.InferOutput<typeof StrandDryRun>;

/** `?force=true` on a DELETE that would strand upcoming bookings (see StrandedConflict), or `?dryRun=1` to ask first. */
export const ForceQuery = v.object({
  force: v.optional(v.picklist(['true', 'false'], 'force must be "true" or "false"')),
  ...DryRunQuery.entries,
});
