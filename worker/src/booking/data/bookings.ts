import type { Booking } from '../../../../contract/bookings.ts';
import type { PaymentRule } from '../../../../contract/payment-rules.ts';
import type { CancellationPolicy } from '../../../../contract/policy.ts';
import { imageUrl } from '../../clinic/data/photo-keys.ts';
import { isNoEmailAddress } from '../../people/data/users.ts';
import { clinicInstant, clinicNow, displayDate } from '../../platform/clinic-time.ts';
import type { Sql } from '../../platform/data/audit.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import type { Env } from '../../platform/env.ts';
/** One booking per patient per treatment per date (index bookings_one_per_patient, over active bookings). */
export const ONE_BOOKING_PER_PATIENT: UniqueConstraint = {
  table: 'bookings',
  columns: ['user_id', 'treatment_id', 'appointment_date'],
};

/** SQL: booking `b` still counts (paid, free, or its hold has not ended at `now`). */
export const liveBooking = (b: string, now: string) =>
  `(${b}.paid = 1 OR ${b}.hold_until IS NULL OR ${b}.hold_until > ${now})`;

/** SQL: booking `b` is unpaid and its hold ended at `now`: it is released. */
export const heldPastItsEnd = (b: string, now: string) => `(${b}.paid = 0 AND ${b}.hold_until <= ${now})`;

/** What a booking owes online and may be charged, by its treatment's payment rule (booking/holds.ts paymentTerms). */
export interface PaymentTerms {
  paymentRule: PaymentRule;
  /** The online deadline: a full or deposit booking of a priced treatment holds its time until then. */
  holdUntil: string | null;
  /** The share paid online for a deposit. */
  depositCents: number | null;
  /** The fees the patient accepts at booking, charged to the card on file (card bookings only). */
  noShowFeeCents: number;
  lateCancelFeeCents: number;
}

export interface BookingRow {
  id: string;
  treatment_id: string;
  treatment: string;
  appointment_date: string;
  slot: string;
  start_minute: number;
  duration_minutes: number;
  user_id: string;
  patient_name: string;
  email: string;
  phone: string;
  price_cents: number;
  paid: number;
  payment_intent_id: string | null;
  hold_until: string | null;
  doctor_id: string | null;
  doctor_name: string | null;
  doctor_image_key: string | null;
  status: 'active' | 'cancelled' | 'attended' | 'no_show' | 'moved';
  cancel_reason: 'patient' | 'admin' | 'unpaid' | null;
  cancel_note: string | null;
  /** Rises on every move and cancellation: the iCalendar SEQUENCE. */
  version: number;
  /** The appointment's iCalendar UID for its whole life (the first booking's id). */
  calendar_uid: string;
  /** The start (ISO, UTC) a paid booking had when it was paid; its free-cancellation window is measured from it. */
  paid_start_at: string | null;
  needs_review: number;
  confirmation: 'unconfirmed' | 'confirmed' | 'callback';
  family_visit_id: string | null;
  /** The account that books, pays and is mailed for it: the patient's, or their guardian's. */
  account_id: string;
  forms_to_fill: number;
  payment_rule: PaymentRule;
  /** The share paid online for a deposit (null: the whole price, or nothing online). */
  deposit_cents: number | null;
  /** The fees accepted at booking, charged to the card on file (0: none). */
  no_show_fee_cents: number;
  late_cancel_fee_cents: number;
  /** The rest after a paid deposit, still to take at the desk (0: none). */
  balance_due_cents: number;
}

/** A booking row's columns that its calendar event shows (booking/calendar.ts), for the mails' files and the feeds. */
export type CalendarColumns = Pick<
  BookingRow,
  | 'calendar_uid'
  | 'version'
  | 'treatment'
  | 'appointment_date'
  | 'start_minute'
  | 'duration_minutes'
  | 'slot'
  | 'doctor_name'
  | 'patient_name'
>;

/** SQL: the account booking `b` belongs to: its patient's guardian for a dependant, else its patient. */
export const ACCOUNT_OF = (b: string) =>
  `coalesce((SELECT u.guardian_id FROM users u WHERE u.id = ${b}.user_id), ${b}.user_id)`;
export const ACCOUNT_OF_B = `${ACCOUNT_OF('b')} AS account_id`;

/**
 * SQL: what is still to take at the desk for deposit booking `b` once it is paid: its price less
 * every payment of it not given back (cents; 0 for any other booking, or when all is paid).
 */
export const BALANCE_DUE = (b: string) => `CASE WHEN ${b}.paid = 1 AND ${b}.deposit_cents IS NOT NULL
  THEN max(0, ${b}.price_cents - coalesce((SELECT sum(bp.amount_cents) FROM payments bp
    WHERE bp.booking_id = ${b}.id AND bp.refund_status IS NULL), 0)) ELSE 0 END`;

export const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, b.start_minute, b.duration_minutes,
  b.user_id, b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.hold_until,
  d.id AS doctor_id, d.name AS doctor_name, d.image_key AS doctor_image_key, b.status, b.cancel_reason, b.cancel_note, b.version,
  coalesce(b.calendar_uid, b.id) AS calendar_uid, b.paid_start_at, b.needs_review, b.confirmation, b.family_visit_id, ${ACCOUNT_OF_B},
  b.payment_rule, b.deposit_cents, b.no_show_fee_cents, b.late_cancel_fee_cents, ${BALANCE_DUE('b')} AS balance_due_cents,
  (SELECT count(*) FROM booking_forms bf WHERE bf.booking_id = b.id AND bf.status != 'filled') AS forms_to_fill`;
export const FROM_BOOKINGS = 'FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id';

/** An address as the screens show it: none for a patient without email (an .invalid address). */
export const shownEmail = (email: string) => (isNoEmailAddress(email) ? '' : email);

const HOUR = 3_600_000;

/**
 * Until when a booking can be cancelled free under the policy of `freeCancellationHours`: measured
 * from the start it was paid for (a move never pushes it later), or from its start.
 */
export function freeCancellationUntil(env: Env, row: BookingRow, freeCancellationHours: number): Date {
  const start = row.paid_start_at
    ? new Date(row.paid_start_at)
    : clinicInstant(env, row.appointment_date, row.start_minute);
  return new Date(start.getTime() - freeCancellationHours * HOUR);
}

/** A booking as every booking route answers it, with the deadlines of the clinic's `policy`. */
export function toBooking(row: BookingRow, env: Env, policy: CancellationPolicy): Booking {
  const startsAt = clinicInstant(env, row.appointment_date, row.start_minute);
  return {
    _id: row.id,
    treatment: row.treatment,
    treatmentId: row.treatment_id,
    appointmentDate: displayDate(row.appointment_date),
    date: row.appointment_date,
    slot: row.slot,
    startsAt: startsAt.toISOString(),
    patientName: row.patient_name,
    patient: row.patient_name,
    email: shownEmail(row.email),
    phone: row.phone,
    price: row.price_cents / 100,
    paid: row.paid === 1,
    payBy: row.paid === 1 ? null : row.hold_until,
    payAtClinic: row.paid === 0 && row.price_cents > 0 && row.hold_until === null,
    paymentRule: row.payment_rule,
    deposit: row.deposit_cents === null ? null : row.deposit_cents / 100,
    noShowFee: row.no_show_fee_cents / 100,
    lateCancelFee: row.late_cancel_fee_cents / 100,
    balanceDue: row.balance_due_cents / 100,
    durationMinutes: row.duration_minutes,
    doctor:
      row.doctor_id === null || row.doctor_name === null || row.doctor_image_key === null
        ? null
        : { _id: row.doctor_id, name: row.doctor_name, image: imageUrl(row.doctor_image_key) },
    // A moved booking is never answered as one (its successor is); were it, it is no longer on.
    status: row.status === 'moved' ? 'cancelled' : row.status,
    cancelNote: row.cancel_note,
    freeCancellationUntil: freeCancellationUntil(env, row, policy.freeCancellationHours).toISOString(),
    rescheduleUntil: new Date(startsAt.getTime() - policy.rescheduleCutoffHours * HOUR).toISOString(),
    familyVisitId: row.family_visit_id,
    formsToFill: row.forms_to_fill,
  };
}

/**
 * The SQL of bookingsOf: by the user ids of the account and its dependants (users_by_guardian), each
 * read through the index bookings_by_user (user_id, appointment_date, start_minute), so it reads only
 * that family's rows however many bookings the clinic holds (a data test checks the plan).
 */
export const BOOKINGS_OF_SQL = `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS}
       WHERE b.user_id IN (SELECT ?1 UNION ALL SELECT id FROM users WHERE guardian_id = ?1) AND (
         (b.status = 'active' AND ${liveBooking('b', '?2')}) OR b.status IN ('attended', 'no_show')
         OR (b.status = 'cancelled' AND b.cancel_reason = 'admin' AND b.appointment_date >= ?3))
       ORDER BY b.appointment_date, b.start_minute, b.id`;

/**
 * The bookings of account `userId` and of its dependants, by date and time (a statement, to batch): the
 * active ones that still count at `now`, those the clinic marked attended or missed, and those the clinic
 * cancelled from `today` (the clinic's date) on, which carry the clinic's reason.
 */
export function bookingsOf(db: D1Database, userId: string, now: Date, today: string): D1PreparedStatement {
  return db.prepare(BOOKINGS_OF_SQL).bind(userId, now.toISOString(), today);
}

export type PastBookingRow = BookingRow & {
  /** 1 when it was released: unpaid when its hold ended. */
  expired: number;
  refund_status: 'due' | 'pending' | 'succeeded' | 'failed' | null;
  refund_amount_cents: number | null;
  currency: string | null;
  has_receipt: number;
};

/**
 * An account's past and cancelled bookings (PastBookingRow), its holder's and its family's, newest
 * first, `limit` from `offset`:
 * cancelled (by them, by the clinic, or released unpaid, swept or not yet), attended, missed, and
 * those over on the clinic's clock (`today`, `minute`) that nobody marked. Moved ones are not listed:
 * the booking that replaced them is. Each with the refund of its payment, if any.
 */
export async function pastBookingsOf(
  db: D1Database,
  userId: string,
  clock: { date: string; minute: number; now: Date },
  limit: number,
  offset: number,
): Promise<PastBookingRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${BOOKING_COLUMNS}, (b.status = 'active' AND ${heldPastItsEnd('b', '?4')}) AS expired,
         p.refund_status, p.refund_amount_cents, p.currency, (p.id IS NOT NULL) AS has_receipt
       ${FROM_BOOKINGS}
         LEFT JOIN payments p ON p.id = (
           SELECT id FROM payments WHERE booking_id = b.id ORDER BY refund_status IS NULL DESC, created_at DESC LIMIT 1)
       WHERE b.user_id IN (SELECT id FROM users WHERE id = ?1 OR guardian_id = ?1) AND b.status != 'moved' AND (
         b.status != 'active' OR ${heldPastItsEnd('b', '?4')}
         OR b.appointment_date < ?2 OR (b.appointment_date = ?2 AND b.start_minute + b.duration_minutes <= ?3))
       ORDER BY b.appointment_date DESC, b.start_minute DESC, b.id
       LIMIT ?5 OFFSET ?6`,
    )
    .bind(userId, clock.date, clock.minute, clock.now.toISOString(), limit, offset)
    .all<PastBookingRow>();
  return results;
}

/** A patient's upcoming bookings that still count at the clock's `now`: active, not started (BookingRow). */
export async function upcomingBookingsOf(
  db: D1Database,
  userId: string,
  clock: { date: string; minute: number; now: Date },
): Promise<BookingRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS}
       WHERE b.user_id = ?1 AND b.status = 'active' AND ${liveBooking('b', '?4')}
         AND (b.appointment_date > ?2 OR (b.appointment_date = ?2 AND b.start_minute > ?3))
       ORDER BY b.appointment_date, b.start_minute, b.id`,
    )
    .bind(userId, clock.date, clock.minute, clock.now.toISOString())
    .all<BookingRow>();
  return results;
}

export type BookingState = BookingRow & {
  /** 1 when it is unpaid and its hold ended at `now` (released, swept or not yet). */
  expired: number;
};

/** A booking in any state. */
export function bookingById(db: D1Database, id: string, now: Date): Promise<BookingState | null> {
  return db
    .prepare(`SELECT ${BOOKING_COLUMNS}, ${heldPastItsEnd('b', '?2')} AS expired ${FROM_BOOKINGS} WHERE b.id = ?1`)
    .bind(id, now.toISOString())
    .first<BookingState>();
}

/** SQL: what booking `b` is paid online: its deposit, or its whole price. */
export const DUE_ONLINE = (b: string) => `coalesce(${b}.deposit_cents, ${b}.price_cents)`;

export interface PayableBookingRow {
  id: string;
  user_id: string;
  account_id: string;
  due_cents: number;
  paid: number;
  /** 1 when released for non-payment (swept, or its hold ended at `now`). */
  released: number;
}

/** A booking to be paid, by its id or by the payment intent handed out for it, in any state. */
export function bookingToPay(
  db: D1Database,
  by: 'id' | 'payment_intent_id',
  value: string,
  now: Date,
): Promise<PayableBookingRow | null> {
  return db
    .prepare(
      `SELECT b.id, b.user_id, ${ACCOUNT_OF_B}, ${DUE_ONLINE('b')} AS due_cents, b.paid,
         (b.cancel_reason IS 'unpaid' OR (b.status = 'active' AND ${heldPastItsEnd('b', '?2')})) AS released
       FROM bookings b WHERE b.${by} = ?1`,
    )
    .bind(value, now.toISOString())
    .first<PayableBookingRow>();
}

/** The booking a payment intent was handed out for (its id is stored on the booking). */
export function bookingOfIntent(db: D1Database, intentId: string): Promise<{ id: string; due_cents: number } | null> {
  return db
    .prepare(`SELECT id, ${DUE_ONLINE('bookings')} AS due_cents FROM bookings WHERE payment_intent_id = ?1`)
    .bind(intentId)
    .first();
}

/** The bookings waiting for the lines of a family visit's payment `intentId` (each waits for "<intent>:<its id>"). */
export async function bookingsOfFamilyIntent(
  db: D1Database,
  intentId: string,
): Promise<{ id: string; due_cents: number; family_visit_id: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, ${DUE_ONLINE('bookings')} AS due_cents, family_visit_id FROM bookings
       WHERE family_visit_id IS NOT NULL AND payment_intent_id = ?1 || ':' || id ORDER BY start_minute, id`,
    )
    .bind(intentId)
    .all<{ id: string; due_cents: number; family_visit_id: string }>();
  return results;
}

export interface FamilyBookingToPay {
  id: string;
  due_cents: number;
  email: string;
  payment_intent_id: string | null;
}

/**
 * The bookings of family visit `familyVisitId` booked by account `accountId` that are still to pay
 * (active, unpaid, priced, not released at `now`), first member first; none when the visit is not theirs.
 */
export async function familyToPay(
  db: D1Database,
  accountId: string,
  familyVisitId: string,
  now: Date,
): Promise<FamilyBookingToPay[]> {
  const { results } = await db
    .prepare(
      `SELECT b.id, ${DUE_ONLINE('b')} AS due_cents, b.email, b.payment_intent_id FROM bookings b
       WHERE b.family_visit_id = ?1 AND ${ACCOUNT_OF('b')} = ?2
         AND b.status = 'active' AND b.paid = 0 AND b.price_cents > 0 AND NOT ${heldPastItsEnd('b', '?3')}
       ORDER BY b.appointment_date, b.start_minute, b.id`,
    )
    .bind(familyVisitId, accountId, now.toISOString())
    .all<FamilyBookingToPay>();
  return results;
}

/** What the bookings `ids` that exist, in any state, are paid online (DUE_ONLINE). */
export async function dueOnlineOf(db: D1Database, ids: string[]): Promise<{ id: string; due_cents: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, ${DUE_ONLINE('bookings')} AS due_cents FROM bookings WHERE id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(ids))
    .all<{ id: string; due_cents: number }>();
  return results;
}

/** Whether account `accountId` booked family visit `familyVisitId`. */
export async function isFamilyVisitOf(db: D1Database, accountId: string, familyVisitId: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 FROM bookings b WHERE b.family_visit_id = ?1 AND ${ACCOUNT_OF('b')} = ?2 LIMIT 1`)
    .bind(familyVisitId, accountId)
    .first();
  return row !== null;
}

/** The id of a booking, in any state, when there is one. */
export function bookingIdIfAny(db: D1Database, id: string): Promise<string | null> {
  return db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(id).first<string>('id');
}

/** Whether a booking is paid (1), unpaid (0), or gone (null). */
export function paidFlagOf(db: D1Database, id: string): Promise<number | null> {
  return db.prepare('SELECT paid FROM bookings WHERE id = ?1').bind(id).first<number>('paid');
}

/**
 * A booking's name in the audit trail, read in the audit statement's batch:
 * "Pat Patient: Teeth Cleaning, 2026-11-21, 09.00 AM - 09.30 AM".
 */
export const bookingName =
  (id: string): Sql =>
  (param) =>
    `(SELECT patient_name || ': ' || treatment || ', ' || appointment_date || ', ' || slot FROM bookings WHERE id = ${param(id)})`;

/**
 * SQL: patient ?1 has had an appointment: one marked attended, or an active booking (paid, free, or
 * still held) whose start has passed on the clinic's clock (?2 today, ?3 minutes after midnight; ?4 now in UTC).
 */
export const HAS_PAST_APPOINTMENT = `EXISTS (
  SELECT 1 FROM bookings b
  WHERE b.user_id = ?1 AND (b.status = 'attended' OR (b.status = 'active' AND ${liveBooking('b', '?4')}))
    AND (b.appointment_date < ?2 OR (b.appointment_date = ?2 AND b.start_minute <= ?3)))`;

/** The parameters ?1 to ?4 of HAS_PAST_APPOINTMENT, from the clinic's clock at `now`. */
export function pastAppointmentParams(env: Env, userId: string, now: Date) {
  const clinic = clinicNow(env, now);
  return [userId, clinic.date, clinic.minute, now.toISOString()] as const;
}

/** Whether the patient has had an appointment by `now`: `{ yes: 1 }` or `{ yes: 0 }`. */
export function pastAppointmentQuery(env: Env, userId: string, now: Date): D1PreparedStatement {
  return env.DB.prepare(`SELECT ${HAS_PAST_APPOINTMENT} AS yes`).bind(...pastAppointmentParams(env, userId, now));
}

/** Where a moved booking went: the last booking of its chain of moves (its date, slot and status), or null. */
export function latestOfMoves(
  db: D1Database,
  id: string,
): Promise<{ appointment_date: string; slot: string; status: string } | null> {
  return db
    .prepare(
      `WITH RECURSIVE chain (id, moved_to) AS (
         SELECT id, moved_to FROM bookings WHERE id = ?1
         UNION ALL SELECT b.id, b.moved_to FROM bookings b JOIN chain c ON b.id = c.moved_to)
       SELECT b.appointment_date, b.slot, b.status FROM chain c JOIN bookings b ON b.id = c.id
       WHERE c.moved_to IS NULL AND c.id != ?1`,
    )
    .bind(id)
    .first();
}

/** The front desk's note on a booking and its version (null: no such booking). */
export function deskNoteOf(db: D1Database, id: string): Promise<{ note: string | null; version: number } | null> {
  return db
    .prepare('SELECT desk_note AS note, desk_note_version AS version FROM bookings WHERE id = ?1')
    .bind(id)
    .first();
}

/** When booking `id` is now (its date and start on the clinic's clock), or null when there is no such booking. */
export const bookingTimeOf = (db: D1Database, id: string) =>
  db
    .prepare('SELECT appointment_date, start_minute FROM bookings WHERE id = ?1')
    .bind(id)
    .first<{ appointment_date: string; start_minute: number }>();
