import type { Booking } from '../../../contract/bookings.ts';
import { clinicInstant, clinicNow, displayDate } from '../clinic-time.ts';
import type { Env } from '../env.ts';
import type { UniqueConstraint } from './unique-constraint.ts';

/** No slot is ever booked twice (index bookings_one_per_slot, over active bookings). */
export const ONE_BOOKING_PER_SLOT: UniqueConstraint = {
  table: 'bookings',
  columns: ['treatment_id', 'appointment_date', 'slot'],
};
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

export interface BookingRow {
  id: string;
  treatment_id: string;
  treatment: string;
  appointment_date: string;
  slot: string;
  start_minute: number;
  user_id: string;
  patient_name: string;
  email: string;
  phone: string;
  price_cents: number;
  paid: number;
  payment_intent_id: string | null;
  hold_until: string | null;
}

const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, s.start_minute, b.user_id,
  b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.hold_until`;
const FROM_BOOKINGS = `FROM bookings b
  JOIN treatment_slots s ON s.treatment_id = b.treatment_id AND s.slot = b.slot`;

/** A booking as every booking route answers it. */
export function toBooking(row: BookingRow, env: Env): Booking {
  return {
    _id: row.id,
    treatment: row.treatment,
    treatmentId: row.treatment_id,
    appointmentDate: displayDate(row.appointment_date),
    date: row.appointment_date,
    slot: row.slot,
    startsAt: clinicInstant(env, row.appointment_date, row.start_minute).toISOString(),
    patientName: row.patient_name,
    patient: row.patient_name,
    email: row.email,
    phone: row.phone,
    price: row.price_cents / 100,
    paid: row.paid === 1,
    payBy: row.paid === 1 ? null : row.hold_until,
    // Until the schedule model lands (next commits): every booking is the half hour it was.
    durationMinutes: 30,
    doctor: null,
  };
}

/** A patient's active bookings that still count at `now`, by date and time. */
export async function bookingsOf(db: D1Database, email: string, now: Date): Promise<BookingRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS}
       WHERE b.email = ?1 AND b.status = 'active' AND ${liveBooking('b', '?2')}
       ORDER BY b.appointment_date, s.start_minute, b.id`,
    )
    .bind(email, now.toISOString())
    .all<BookingRow>();
  return results;
}

export type BookingState = BookingRow & {
  status: 'active' | 'cancelled';
  cancel_reason: 'patient' | 'admin' | 'unpaid' | null;
  /** 1 when it is unpaid and its hold ended at `now` (released, swept or not yet). */
  expired: number;
};

/** A booking in any state. */
export function bookingById(db: D1Database, id: string, now: Date): Promise<BookingState | null> {
  return db
    .prepare(
      `SELECT ${BOOKING_COLUMNS}, b.status, b.cancel_reason, ${heldPastItsEnd('b', '?2')} AS expired ${FROM_BOOKINGS} WHERE b.id = ?1`,
    )
    .bind(id, now.toISOString())
    .first<BookingState>();
}

export interface PayableBookingRow {
  id: string;
  user_id: string;
  price_cents: number;
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
      `SELECT b.id, b.user_id, b.price_cents, b.paid,
         (b.cancel_reason IS 'unpaid' OR (b.status = 'active' AND ${heldPastItsEnd('b', '?2')})) AS released
       FROM bookings b WHERE b.${by} = ?1`,
    )
    .bind(value, now.toISOString())
    .first<PayableBookingRow>();
}

/** The booking a payment intent was handed out for (its id is stored on the booking). */
export function bookingOfIntent(db: D1Database, intentId: string): Promise<{ id: string; price_cents: number } | null> {
  return db.prepare('SELECT id, price_cents FROM bookings WHERE payment_intent_id = ?1').bind(intentId).first();
}

/** The id of a booking, in any state, when there is one. */
export function bookingIdIfAny(db: D1Database, id: string): Promise<string | null> {
  return db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(id).first<string>('id');
}

/** Whether a booking is paid (1), unpaid (0), or gone (null). */
export function paidFlagOf(db: D1Database, id: string): Promise<number | null> {
  return db.prepare('SELECT paid FROM bookings WHERE id = ?1').bind(id).first<number>('paid');
}

export interface NewBookingRow {
  id: string;
  treatmentId: string;
  treatment: string;
  appointmentDate: string;
  slot: string;
  userId: string;
  patientName: string;
  email: string;
  phone: string;
  priceCents: number;
  /** Now (ISO, UTC): when it is booked, and the instant lapsed holds are judged at. */
  createdAt: string;
  holdUntil: string | null;
}

/**
 * The statements of a new booking share their parameters: ?1 id … ?12 hold_until, ?13 the most
 * unpaid bookings a patient may hold.
 */
function bookingParams(booking: NewBookingRow, maxUnpaid: number) {
  const b = booking;
  return [
    b.id,
    b.treatmentId,
    b.treatment,
    b.appointmentDate,
    b.slot,
    b.userId,
    b.patientName,
    b.email,
    b.phone,
    b.priceCents,
    b.createdAt,
    b.holdUntil,
    maxUnpaid,
  ] as const;
}

/** SQL: the booking is free, or its patient holds fewer live unpaid bookings than allowed (counted in the statement, so concurrent requests cannot get past it). */
const UNDER_UNPAID_LIMIT = `(?10 = 0 OR (SELECT count(*) FROM bookings held
    WHERE held.user_id = ?6 AND held.status = 'active' AND held.paid = 0 AND held.hold_until > ?11) < ?13)`;

const releaseWhere = (db: D1Database, match: string) =>
  db.prepare(
    `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?11
     WHERE b.status = 'active' AND ${heldPastItsEnd('b', '?11')} AND ${match} AND ${UNDER_UNPAID_LIMIT}`,
  );

/**
 * Releases the unpaid bookings whose hold has ended and that stand in a new booking's way (its
 * slot, and the patient's own booking of this treatment on this date), while the patient is under
 * the limit. Put them in the new booking's batch, before insertBooking.
 */
export function releaseLapsedHoldsInTheWay(
  db: D1Database,
  booking: NewBookingRow,
  maxUnpaid: number,
): D1PreparedStatement[] {
  const params = bookingParams(booking, maxUnpaid);
  return [
    releaseWhere(db, 'b.treatment_id = ?2 AND b.appointment_date = ?4 AND b.slot = ?5').bind(...params),
    releaseWhere(db, 'b.user_id = ?6 AND b.treatment_id = ?2 AND b.appointment_date = ?4').bind(...params),
  ];
}

/**
 * Inserts the booking while its patient is under the unpaid limit (0 changes when not). A slot or a
 * date still taken fails it on ONE_BOOKING_PER_SLOT or ONE_BOOKING_PER_PATIENT, whatever the timing.
 */
export function insertBooking(db: D1Database, booking: NewBookingRow, maxUnpaid: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, phone,
         price_cents, created_at, hold_until)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 WHERE ${UNDER_UNPAID_LIMIT}`,
    )
    .bind(...bookingParams(booking, maxUnpaid));
}

/** Cancels an active booking and frees its slot; unless `evenPaid`, only while it is unpaid (checked in the write). */
export function cancelActiveBooking(
  db: D1Database,
  id: string,
  { evenPaid, by }: { evenPaid: boolean; by: 'patient' | 'admin' },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = 'cancelled', cancel_reason = ?3, cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND status = 'active' AND (?2 OR paid = 0)`,
    )
    .bind(id, evenPaid ? 1 : 0, by);
}

/**
 * Releases every unpaid booking whose hold ended by `now` (cancelled with cancel_reason 'unpaid'),
 * which frees its slot.
 */
export function releaseLapsedHolds(db: D1Database, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?1
       WHERE b.status = 'active' AND b.hold_until IS NOT NULL AND ${heldPastItsEnd('b', '?1')}`,
    )
    .bind(now.toISOString());
}

/** Remembers the payment intent handed out for a booking (one per booking). */
export function setPaymentIntent(db: D1Database, bookingId: string, intentId: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1').bind(bookingId, intentId);
}

/** Marks an active booking paid, when the payment recorded for it by `transactionId` is not one owed back. */
export function markBookingPaid(db: D1Database, bookingId: string, transactionId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET paid = 1, payment_error = NULL
       WHERE id = ?1 AND status = 'active' AND EXISTS (
         SELECT 1 FROM payments p WHERE p.transaction_id = ?2 AND p.booking_id = ?1 AND p.refund_status IS NULL)`,
    )
    .bind(bookingId, transactionId);
}

/** Notes why the last payment of an unpaid booking failed (a failure never un-pays a booking). */
export function notePaymentFailure(db: D1Database, bookingId: string, message: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_error = ?2 WHERE id = ?1 AND paid = 0').bind(bookingId, message);
}

/**
 * SQL: patient ?1 has had an appointment: an active booking (paid, free, or still held) whose start
 * has passed on the clinic's clock (?2 today, ?3 minutes after midnight; ?4 now in UTC).
 */
export const HAS_PAST_APPOINTMENT = `EXISTS (
  SELECT 1 FROM bookings b JOIN treatment_slots s ON s.treatment_id = b.treatment_id AND s.slot = b.slot
  WHERE b.user_id = ?1 AND b.status = 'active' AND ${liveBooking('b', '?4')}
    AND (b.appointment_date < ?2 OR (b.appointment_date = ?2 AND s.start_minute <= ?3)))`;

/** The parameters ?1 to ?4 of HAS_PAST_APPOINTMENT, from the clinic's clock at `now`. */
export function pastAppointmentParams(env: Env, userId: string, now: Date) {
  const clinic = clinicNow(env, now);
  return [userId, clinic.date, clinic.minute, now.toISOString()] as const;
}

/** Whether the patient has had an appointment by `now`: `{ yes: 1 }` or `{ yes: 0 }`. */
export function pastAppointmentQuery(env: Env, userId: string, now: Date): D1PreparedStatement {
  return env.DB.prepare(`SELECT ${HAS_PAST_APPOINTMENT} AS yes`).bind(...pastAppointmentParams(env, userId, now));
}
