import type { Booking, StrandedBooking } from '../../../../contract/bookings.ts';
import type { DayCount, ScheduleEntry } from '../../../../contract/schedule.ts';
import { clockOf } from '../../clinic/data/clinic-hours.ts';
import { imageUrl } from '../../clinic/data/photo-keys.ts';
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
  doctor_name: string | null;
  doctor_image_key: string | null;
  status: 'active' | 'cancelled' | 'attended' | 'no_show' | 'moved';
  cancel_reason: 'patient' | 'admin' | 'unpaid' | null;
  cancel_note: string | null;
}

const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, b.start_minute, b.duration_minutes,
  b.user_id, b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.hold_until,
  d.name AS doctor_name, d.image_key AS doctor_image_key, b.status, b.cancel_reason, b.cancel_note`;
const FROM_BOOKINGS = 'FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id';

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
    durationMinutes: row.duration_minutes,
    doctor:
      row.doctor_name === null || row.doctor_image_key === null
        ? null
        : { name: row.doctor_name, image: imageUrl(row.doctor_image_key) },
    // A moved booking is never answered as one (its successor is); were it, it is no longer on.
    status: row.status === 'moved' ? 'cancelled' : row.status,
    cancelNote: row.cancel_note,
  };
}

/**
 * The SQL of bookingsOf: by the patient's user id, which the index bookings_by_user (user_id,
 * appointment_date, start_minute) answers in the order asked, so it reads only that patient's rows
 * however many bookings the clinic holds (a data test checks the plan).
 */
export const BOOKINGS_OF_SQL = `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS}
       WHERE b.user_id = ?1 AND (
         (b.status = 'active' AND ${liveBooking('b', '?2')}) OR b.status IN ('attended', 'no_show')
         OR (b.status = 'cancelled' AND b.cancel_reason = 'admin' AND b.appointment_date >= ?3))
       ORDER BY b.appointment_date, b.start_minute, b.id`;

/**
 * A patient's bookings (user `userId`), by date and time: the active ones that still count at
 * `now`, those the clinic marked attended or missed, and those the clinic cancelled from `today`
 * (the clinic's date) on, which carry the clinic's reason.
 */
export async function bookingsOf(db: D1Database, userId: string, now: Date, today: string): Promise<BookingRow[]> {
  const { results } = await db.prepare(BOOKINGS_OF_SQL).bind(userId, now.toISOString(), today).all<BookingRow>();
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
  /** Minutes after midnight on the clinic's clock. */
  startMinute: number;
  durationMinutes: number;
  doctorId: string;
  chairId: string;
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
 * SQL: the booking is free (?1 its price), or patient ?2 holds fewer live unpaid bookings at ?3
 * (now) than ?4 allows: counted in the statement, so concurrent requests cannot get past it.
 */
const UNDER_UNPAID_LIMIT = `(?1 = 0 OR (SELECT count(*) FROM bookings held
    WHERE held.user_id = ?2 AND held.status = 'active' AND held.paid = 0 AND held.hold_until > ?3) < ?4)`;
/** The parameters ?1 to ?4 of UNDER_UNPAID_LIMIT; `maxUnpaid` null: no limit (a moved booking is no new hold). */
const limitParams = (b: Pick<NewBookingRow, 'priceCents' | 'userId' | 'createdAt'>, maxUnpaid: number | null) =>
  [maxUnpaid === null ? 0 : b.priceCents, b.userId, b.createdAt, maxUnpaid ?? 0] as const;

const releaseWhere = (db: D1Database, match: string) =>
  db.prepare(
    `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?3
     WHERE b.status = 'active' AND ${heldPastItsEnd('b', '?3')} AND ${match} AND ${UNDER_UNPAID_LIMIT}`,
  );

/**
 * Releases the unpaid bookings whose hold has ended and that stand in a new booking's way (a claim
 * on its doctor's or chair's cells `firstCell`..`lastCell`, or the patient's own booking of this
 * treatment on this date), while the patient is under the limit (`maxUnpaid`; null: none). Put
 * them in the new booking's batch before its insert, followed by dropDeadClaims (which frees their claims).
 */
export function releaseLapsedHoldsInTheWay(
  db: D1Database,
  booking: Pick<NewBookingRow, 'priceCents' | 'userId' | 'createdAt' | 'treatmentId' | 'appointmentDate'>,
  maxUnpaid: number | null,
  cells: { resources: readonly [string, string]; firstCell: number; lastCell: number },
): D1PreparedStatement[] {
  const limit = limitParams(booking, maxUnpaid);
  return [
    releaseWhere(
      db,
      'b.id IN (SELECT c.booking_id FROM claims c WHERE c.day = ?5 AND c.resource IN (?6, ?7) AND c.cell BETWEEN ?8 AND ?9)',
    ).bind(...limit, booking.appointmentDate, ...cells.resources, cells.firstCell, cells.lastCell),
    releaseWhere(db, 'b.user_id = ?2 AND b.treatment_id = ?5 AND b.appointment_date = ?6').bind(
      ...limit,
      booking.treatmentId,
      booking.appointmentDate,
    ),
  ];
}

/**
 * Inserts the booking while its patient is under the unpaid limit and its treatment is still
 * offered (0 changes when not), and, for a waitlist offer (`offerId`), while that offer is open and
 * not expired: of several accepts of one offer, only the first batch books. A date the patient already booked this treatment on fails it on
 * ONE_BOOKING_PER_PATIENT, whatever the timing; its claims (insertClaims) decide its time.
 */
export function insertBooking(
  db: D1Database,
  booking: NewBookingRow,
  maxUnpaid: number,
  offerId: string | null = null,
): D1PreparedStatement {
  const b = booking;
  return db
    .prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
         chair_id, user_id, patient_name, email, phone, price_cents, created_at, hold_until)
       SELECT ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?2, ?14, ?15, ?16, ?1, ?3, ?17
       WHERE ${UNDER_UNPAID_LIMIT} AND EXISTS (SELECT 1 FROM treatments t WHERE t.id = ?6 AND t.active = 1)
         AND (?18 IS NULL OR EXISTS (
           SELECT 1 FROM waitlist_offers o WHERE o.id = ?18 AND o.status = 'open' AND o.expires_at > ?3))`,
    )
    .bind(
      ...limitParams(b, maxUnpaid),
      b.id,
      b.treatmentId,
      b.treatment,
      b.appointmentDate,
      b.slot,
      b.startMinute,
      b.durationMinutes,
      b.doctorId,
      b.chairId,
      b.patientName,
      b.email,
      b.phone,
      b.holdUntil,
      offerId,
    );
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
 * Cancels an active booking and frees its slot; unless `evenPaid`, only while it is unpaid (checked
 * in the write). `note`: why the clinic cancelled it, in its words (the patient sees it).
 */
export function cancelActiveBooking(
  db: D1Database,
  id: string,
  { evenPaid, by, note = null }: { evenPaid: boolean; by: 'patient' | 'admin'; note?: string | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = 'cancelled', cancel_reason = ?3, cancel_note = ?4,
         cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND status = 'active' AND (?2 OR paid = 0)`,
    )
    .bind(id, evenPaid ? 1 : 0, by, note);
}

/** SQL: the active bookings whose hold ended by ?1 (the bookings_holds index finds them). */
const LAPSED = `SELECT b.id FROM bookings b WHERE b.status = 'active' AND b.paid = 0 AND b.hold_until IS NOT NULL AND b.hold_until <= ?1`;

/**
 * Releases every unpaid booking whose hold ended by `now` (cancelled with cancel_reason 'unpaid')
 * and frees its claims: two statements for one batch.
 */
export function releaseLapsedHolds(db: D1Database, now: Date): D1PreparedStatement[] {
  const at = now.toISOString();
  return [
    db.prepare(`DELETE FROM claims WHERE booking_id IN (${LAPSED})`).bind(at),
    db
      .prepare(
        `UPDATE bookings SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?1 WHERE id IN (${LAPSED})`,
      )
      .bind(at),
  ];
}

/** Remembers the payment intent handed out for a booking (one per booking). */
export function setPaymentIntent(db: D1Database, bookingId: string, intentId: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1').bind(bookingId, intentId);
}

/** Marks an active, unpaid booking paid (a repeat changes nothing), when the payment recorded for it by `transactionId` is not one owed back. */
export function markBookingPaid(db: D1Database, bookingId: string, transactionId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET paid = 1, payment_error = NULL
       WHERE id = ?1 AND status = 'active' AND paid = 0 AND EXISTS (
         SELECT 1 FROM payments p WHERE p.transaction_id = ?2 AND p.booking_id = ?1 AND p.refund_status IS NULL)`,
    )
    .bind(bookingId, transactionId);
}

/** Notes why the last payment of an unpaid booking failed (a failure never un-pays a booking). */
export function notePaymentFailure(db: D1Database, bookingId: string, message: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_error = ?2 WHERE id = ?1 AND paid = 0').bind(bookingId, message);
}

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

/**
 * A schedule change that may leave upcoming bookings without a doctor or a chair, or outside the
 * clinic's or their doctor's time. Each is a condition on a booking `b`, evaluated in SQL, so the
 * same test finds them before the change and marks them in the change's own batch.
 */
export type ScheduleChange =
  /** A closure of the clinic (doctorId null) or of one doctor, from..to inclusive. */
  | { kind: 'closure'; from: string; to: string; doctorId: string | null }
  /** The clinic's new opening hours: [weekday, open minute, close minute] per open weekday. */
  | { kind: 'hours'; hours: readonly (readonly [number, number, number])[] }
  /** A doctor's new days (bit mask), hours, and specialty (null: unchanged). */
  | { kind: 'doctor'; doctorId: string; workingDays: number; start: number; end: number; specialtyId: string | null }
  | { kind: 'doctor deleted'; doctorId: string }
  | { kind: 'chair deleted'; chairId: string };

/** SQL on booking `b`, with parameters from ?4 on, for each kind of change. */
function strandedBy(change: ScheduleChange): { sql: string; params: (string | number | null)[] } {
  const weekday = "CAST(strftime('%w', b.appointment_date) AS INTEGER)";
  switch (change.kind) {
    case 'closure':
      return {
        sql: 'b.appointment_date BETWEEN ?4 AND ?5 AND (?6 IS NULL OR b.doctor_id = ?6)',
        params: [change.from, change.to, change.doctorId],
      };
    case 'hours':
      return {
        sql: `NOT EXISTS (SELECT 1 FROM json_each(?4) h WHERE json_extract(h.value, '$[0]') = ${weekday}
                AND b.start_minute >= json_extract(h.value, '$[1]') AND b.start_minute + b.duration_minutes <= json_extract(h.value, '$[2]'))`,
        params: [JSON.stringify(change.hours)],
      };
    case 'doctor':
      return {
        sql: `b.doctor_id = ?4 AND ((?5 >> ${weekday}) & 1 = 0 OR b.start_minute < ?6 OR b.start_minute + b.duration_minutes > ?7
                OR (?8 IS NOT NULL AND (SELECT t.specialty_id FROM treatments t WHERE t.id = b.treatment_id) IS NOT ?8))`,
        params: [change.doctorId, change.workingDays, change.start, change.end, change.specialtyId],
      };
    case 'doctor deleted':
      return { sql: 'b.doctor_id = ?4', params: [change.doctorId] };
    case 'chair deleted':
      return { sql: 'b.chair_id = ?4', params: [change.chairId] };
  }
}

/**
 * SQL: booking `b` is upcoming and still counts: active, not released for non-payment, and not
 * started on the clinic's clock (?1 today, ?2 minutes after midnight, ?3 now in UTC).
 */
const UPCOMING = `b.status = 'active' AND ${liveBooking('b', '?3')}
  AND (b.appointment_date > ?1 OR (b.appointment_date = ?1 AND b.start_minute > ?2))`;

function strandedParams(env: Env, change: ScheduleChange, now: Date) {
  const clock = clinicNow(env, now);
  const { sql, params } = strandedBy(change);
  return { where: `${UPCOMING} AND ${sql}`, params: [clock.date, clock.minute, now.toISOString(), ...params] };
}

export interface StrandedRow {
  id: string;
  treatment: string;
  appointment_date: string;
  slot: string;
  patient_name: string;
  email: string;
  phone: string;
  doctor_name: string | null;
}

export const toStranded = (row: StrandedRow): StrandedBooking => ({
  _id: row.id,
  treatment: row.treatment,
  appointmentDate: displayDate(row.appointment_date),
  date: row.appointment_date,
  slot: row.slot,
  patientName: row.patient_name,
  email: row.email,
  phone: row.phone,
  doctor: row.doctor_name,
});

/** The upcoming bookings `change` would strand (StrandedRow), by date and time. */
export function strandedBookings(env: Env, change: ScheduleChange, now: Date): D1PreparedStatement {
  const { where, params } = strandedParams(env, change, now);
  return env.DB.prepare(
    `SELECT b.id, b.treatment, b.appointment_date, b.slot, b.patient_name, b.email, b.phone, d.name AS doctor_name
     FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
     WHERE ${where} ORDER BY b.appointment_date, b.start_minute, b.id`,
  ).bind(...params);
}

/** Marks the upcoming bookings `change` strands for the front desk's review (needs_review = 1); put it in the change's batch, before the change. */
export function markStranded(env: Env, change: ScheduleChange, now: Date): D1PreparedStatement {
  const { where, params } = strandedParams(env, change, now);
  return env.DB.prepare(
    `UPDATE bookings SET needs_review = 1 WHERE id IN (SELECT b.id FROM bookings b WHERE ${where})`,
  ).bind(...params);
}

/** Whether a treatment has upcoming bookings (SQL on treatment ?1, with ?2 today). */
export const HAS_UPCOMING_BOOKINGS = `EXISTS (SELECT 1 FROM bookings b WHERE b.status = 'active' AND b.treatment_id = ?1 AND b.appointment_date >= ?2)`;

export interface MoveRow {
  /** The booking moved, and what was read of it: the move happens only while it is still so. */
  from: { id: string; paid: number; paymentIntentId: string | null };
  to: {
    id: string;
    appointmentDate: string;
    slot: string;
    startMinute: number;
    durationMinutes: number;
    doctorId: string;
    chairId: string;
    holdUntil: string | null;
  };
  /** Now (ISO, UTC). */
  at: string;
}

/**
 * The first write of a reschedule: marks the booking 'moved' (moved_to is set once its successor
 * exists, linkMoved), only while it is as it was read (active, still counting at `at`, the same
 * paid flag and payment intent) and its treatment is still offered; 0 changes otherwise, and then
 * the rest of the move (moveStatements) does nothing. A paid booking hands its payment intent on
 * (it is unique), an unpaid one keeps it: a payment of that intent arriving later finds the booking
 * moved and is recorded as owed back.
 */
function markMoved(db: D1Database, move: MoveRow): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = 'moved', cancelled_at = ?2,
         payment_intent_id = CASE WHEN ?3 = 1 THEN NULL ELSE payment_intent_id END
       WHERE id = ?1 AND status = 'active' AND ${liveBooking('bookings', '?2')} AND paid = ?3 AND payment_intent_id IS ?4
         AND EXISTS (SELECT 1 FROM treatments t WHERE t.id = bookings.treatment_id AND t.active = 1)`,
    )
    .bind(move.from.id, move.at, move.from.paid, move.from.paymentIntentId);
}

/** Points the moved booking to its successor, once that exists. */
function linkMoved(db: D1Database, move: MoveRow): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET moved_to = ?2
       WHERE id = ?1 AND status = 'moved' AND moved_to IS NULL AND EXISTS (SELECT 1 FROM bookings WHERE id = ?2)`,
    )
    .bind(move.from.id, move.to.id);
}

/** The booking that replaces a moved one (just marked, not yet linked): its patient, treatment, price and paid flag, at its new time. */
function insertMovedBooking(db: D1Database, move: MoveRow): D1PreparedStatement {
  const { from, to } = move;
  return db
    .prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
         chair_id, user_id, patient_name, email, phone, price_cents, paid, payment_intent_id, created_at, hold_until)
       SELECT ?2, o.treatment_id, o.treatment, ?3, ?4, ?5, ?6, ?7, ?8, o.user_id, o.patient_name, o.email, o.phone,
         o.price_cents, o.paid, ?9, ?10, ?11
       FROM bookings o WHERE o.id = ?1 AND o.status = 'moved' AND o.moved_to IS NULL`,
    )
    .bind(
      from.id,
      to.id,
      to.appointmentDate,
      to.slot,
      to.startMinute,
      to.durationMinutes,
      to.doctorId,
      to.chairId,
      from.paid === 1 ? from.paymentIntentId : null,
      move.at,
      to.holdUntil,
    );
}

/** A paid booking's payment follows it to the booking that replaced it (once that exists). */
function movePayment(db: D1Database, move: MoveRow): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE payments SET booking_id = ?2
       WHERE booking_id = ?1 AND refund_status IS NULL AND EXISTS (SELECT 1 FROM bookings WHERE id = ?2)`,
    )
    .bind(move.from.id, move.to.id);
}

/**
 * A reschedule's own writes, for one batch after the releases of lapsed holds in the way: the old
 * booking marked moved (markMoved: the first statement, whose changes say whether it happened), its
 * claims freed, the new booking inserted with the old one's patient and payment and linked from the
 * old one, its payment moved.
 * Put the new booking's claims (insertClaims) after these: a cell taken meanwhile fails the whole
 * batch, and the old booking stays as it was.
 */
export function moveStatements(
  db: D1Database,
  move: MoveRow,
  freeOldClaims: D1PreparedStatement,
  dropDead: D1PreparedStatement,
  /** The move's audit row: right after the new booking's insert, written only when that inserted it (IF_CHANGED). */
  audit?: D1PreparedStatement,
): D1PreparedStatement[] {
  return [
    markMoved(db, move),
    freeOldClaims,
    dropDead,
    insertMovedBooking(db, move),
    ...(audit ? [audit] : []),
    linkMoved(db, move),
    movePayment(db, move),
  ];
}

/**
 * Marks a booking attended or missed: one that is active and still counts at `at`, or already
 * marked (the clinic corrects its mark). 0 changes when it was cancelled, moved or released meanwhile.
 * Its claims stay: its doctor and chair were taken for its time either way.
 */
export function setAttendance(
  db: D1Database,
  id: string,
  status: 'attended' | 'no_show',
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = ?2
       WHERE id = ?1 AND (status IN ('attended', 'no_show') OR (status = 'active' AND ${liveBooking('bookings', '?3')}))`,
    )
    .bind(id, status, at);
}

export interface ScheduleRow {
  id: string;
  user_id: string;
  patient_name: string;
  email: string;
  phone: string;
  treatment: string;
  treatment_id: string;
  appointment_date: string;
  start_minute: number;
  duration_minutes: number;
  slot: string;
  doctor_id: string | null;
  doctor_name: string | null;
  chair_id: string | null;
  chair_name: string | null;
  price_cents: number;
  paid: number;
  status: 'active' | 'cancelled' | 'attended' | 'no_show';
  cancel_reason: 'patient' | 'admin' | 'unpaid' | null;
  cancel_note: string | null;
  needs_review: number;
  no_shows: number;
  expired: number;
}

/**
 * Every booking from `from` to `to` (ISO dates, inclusive) but the moved ones (ScheduleRow), by
 * date, start and doctor, with the patient's no-shows; `expired` says an active one's hold ended at `now`.
 */
export function scheduleBetween(db: D1Database, from: string, to: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.id, b.user_id, b.patient_name, b.email, b.phone, b.treatment, b.treatment_id, b.appointment_date,
         b.start_minute, b.duration_minutes, b.slot, b.doctor_id, d.name AS doctor_name, b.chair_id, c.name AS chair_name,
         b.price_cents, b.paid, b.status, b.cancel_reason, b.cancel_note, b.needs_review,
         (SELECT count(*) FROM bookings n WHERE n.user_id = b.user_id AND n.status = 'no_show') AS no_shows,
         (b.status = 'active' AND ${heldPastItsEnd('b', '?3')}) AS expired
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id LEFT JOIN chairs c ON c.id = b.chair_id
       WHERE b.appointment_date BETWEEN ?1 AND ?2 AND b.status != 'moved'
       ORDER BY b.appointment_date, b.start_minute, d.name, b.id`,
    )
    .bind(from, to, now.toISOString());
}

/** A booking on the schedule; an active one whose hold ended shows as what it is: released for non-payment. */
export function toScheduleEntry(row: ScheduleRow, env: Env): ScheduleEntry {
  const released = row.expired === 1;
  return {
    _id: row.id,
    userId: row.user_id,
    patientName: row.patient_name,
    email: row.email,
    phone: row.phone,
    treatment: row.treatment,
    treatmentId: row.treatment_id,
    start: clockOf(row.start_minute),
    startMinute: row.start_minute,
    durationMinutes: row.duration_minutes,
    slot: row.slot,
    startsAt: clinicInstant(env, row.appointment_date, row.start_minute).toISOString(),
    doctor: row.doctor_id && row.doctor_name ? { _id: row.doctor_id, name: row.doctor_name } : null,
    chair: row.chair_id && row.chair_name ? { _id: row.chair_id, name: row.chair_name } : null,
    price: row.price_cents / 100,
    paid: row.paid === 1,
    status: released ? 'cancelled' : row.status,
    cancelReason: released ? 'unpaid' : row.cancel_reason,
    cancelNote: row.cancel_note,
    needsReview: row.needs_review === 1,
    noShows: row.no_shows,
  };
}

/**
 * How many appointments each day from `from` to `to` has that take place or took place (active
 * and still counting at `now`, attended, missed): the days with none are not listed.
 */
export async function countsPerDay(db: D1Database, from: string, to: string, now: Date): Promise<DayCount[]> {
  const { results } = await db
    .prepare(
      `SELECT b.appointment_date AS date, count(*) AS count FROM bookings b
       WHERE b.appointment_date BETWEEN ?1 AND ?2
         AND (b.status IN ('attended', 'no_show') OR (b.status = 'active' AND ${liveBooking('b', '?3')}))
       GROUP BY b.appointment_date ORDER BY b.appointment_date`,
    )
    .bind(from, to, now.toISOString())
    .all<DayCount>();
  return results;
}
