import type { Booking, StrandedBooking } from '../../../../contract/bookings.ts';
import type { CancellationPolicy } from '../../../../contract/policy.ts';
import type { DayCount, ScheduleEntry } from '../../../../contract/schedule.ts';
import { clockOf } from '../../clinic/data/clinic-hours.ts';
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

const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, b.start_minute, b.duration_minutes,
  b.user_id, b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.hold_until,
  d.name AS doctor_name, d.image_key AS doctor_image_key, b.status, b.cancel_reason, b.cancel_note, b.version,
  coalesce(b.calendar_uid, b.id) AS calendar_uid, b.paid_start_at, b.needs_review, b.confirmation, b.family_visit_id, ${ACCOUNT_OF_B},
  (SELECT count(*) FROM booking_forms bf WHERE bf.booking_id = b.id AND bf.status != 'filled') AS forms_to_fill`;
const FROM_BOOKINGS = 'FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id';

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
    durationMinutes: row.duration_minutes,
    doctor:
      row.doctor_name === null || row.doctor_image_key === null
        ? null
        : { name: row.doctor_name, image: imageUrl(row.doctor_image_key) },
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

export interface PayableBookingRow {
  id: string;
  user_id: string;
  account_id: string;
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
      `SELECT b.id, b.user_id, ${ACCOUNT_OF_B}, b.price_cents, b.paid,
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

/** The bookings waiting for the lines of a family visit's payment `intentId` (each waits for "<intent>:<its id>"). */
export async function bookingsOfFamilyIntent(
  db: D1Database,
  intentId: string,
): Promise<{ id: string; price_cents: number; family_visit_id: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, price_cents, family_visit_id FROM bookings
       WHERE family_visit_id IS NOT NULL AND payment_intent_id = ?1 || ':' || id ORDER BY start_minute, id`,
    )
    .bind(intentId)
    .all<{ id: string; price_cents: number; family_visit_id: string }>();
  return results;
}

export interface FamilyBookingToPay {
  id: string;
  price_cents: number;
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
      `SELECT b.id, b.price_cents, b.email, b.payment_intent_id FROM bookings b
       WHERE b.family_visit_id = ?1 AND ${ACCOUNT_OF('b')} = ?2
         AND b.status = 'active' AND b.paid = 0 AND b.price_cents > 0 AND NOT ${heldPastItsEnd('b', '?3')}
       ORDER BY b.appointment_date, b.start_minute, b.id`,
    )
    .bind(familyVisitId, accountId, now.toISOString())
    .all<FamilyBookingToPay>();
  return results;
}

/** The prices of the bookings `ids` that exist, in any state. */
export async function pricesOf(db: D1Database, ids: string[]): Promise<{ id: string; price_cents: number }[]> {
  const { results } = await db
    .prepare('SELECT id, price_cents FROM bookings WHERE id IN (SELECT value FROM json_each(?1))')
    .bind(JSON.stringify(ids))
    .all<{ id: string; price_cents: number }>();
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

/**
 * A schedule change that may leave upcoming bookings (and held offers) without a doctor, a chair or
 * a treatment, or outside the clinic's or their doctor's time. Each is a condition on a booking or
 * an offer, evaluated in SQL, so the same test finds them before the change and acts on them in the
 * change's own batch.
 */
export type ScheduleChange =
  /** A closure of the clinic (doctorId null) or of one doctor, from..to inclusive. */
  | { kind: 'closure'; from: string; to: string; doctorId: string | null }
  /** The clinic's new opening hours: [weekday, open minute, close minute] per open weekday. */
  | { kind: 'hours'; hours: readonly (readonly [number, number, number])[] }
  /** A doctor's new hours per weekday ([weekday, start, end]; a weekday not listed is a day off), and specialty (null: unchanged). */
  | {
      kind: 'doctor';
      doctorId: string;
      hours: readonly (readonly [number, number, number])[];
      specialtyId: string | null;
    }
  | { kind: 'doctor deleted'; doctorId: string }
  | { kind: 'chair deleted'; chairId: string }
  /** A treatment deactivated or deleted: its bookings stay, its offers go. */
  | { kind: 'treatment withdrawn'; treatmentId: string };

/** The columns of what a change may strand: a booking (alias b) or a waitlist offer (alias o). */
export interface StrandColumns {
  alias: string;
  date: string;
  start: string;
  duration: string;
  doctor: string;
  chair: string;
  treatment: string;
}

const BOOKING_COLUMNS_OF_B: StrandColumns = {
  alias: 'b',
  date: 'b.appointment_date',
  start: 'b.start_minute',
  duration: 'b.duration_minutes',
  doctor: 'b.doctor_id',
  chair: 'b.chair_id',
  treatment: 'b.treatment_id',
};

/** SQL on `c`'s row for each kind of change, with its parameters bound through `param`. */
function strandedBy(change: ScheduleChange, c: StrandColumns, param: (value: unknown) => string): string {
  const weekday = `CAST(strftime('%w', ${c.date}) AS INTEGER)`;
  const end = `${c.start} + ${c.duration}`;
  switch (change.kind) {
    case 'closure': {
      const doctor = param(change.doctorId);
      return `${c.date} BETWEEN ${param(change.from)} AND ${param(change.to)} AND (${doctor} IS NULL OR ${c.doctor} = ${doctor})`;
    }
    case 'hours':
      return `NOT EXISTS (SELECT 1 FROM json_each(${param(JSON.stringify(change.hours))}) h
                WHERE json_extract(h.value, '$[0]') = ${weekday}
                  AND ${c.start} >= json_extract(h.value, '$[1]') AND ${end} <= json_extract(h.value, '$[2]'))`;
    case 'doctor': {
      const specialty = param(change.specialtyId);
      return `${c.doctor} = ${param(change.doctorId)} AND (
                NOT EXISTS (SELECT 1 FROM json_each(${param(JSON.stringify(change.hours))}) h
                  WHERE json_extract(h.value, '$[0]') = ${weekday}
                    AND ${c.start} >= json_extract(h.value, '$[1]') AND ${end} <= json_extract(h.value, '$[2]'))
                OR (${specialty} IS NOT NULL AND (SELECT t.specialty_id FROM treatments t WHERE t.id = ${c.treatment}) IS NOT ${specialty}))`;
    }
    case 'doctor deleted':
      return `${c.doctor} = ${param(change.doctorId)}`;
    case 'chair deleted':
      return `${c.chair} = ${param(change.chairId)}`;
    case 'treatment withdrawn':
      return `${c.treatment} = ${param(change.treatmentId)}`;
  }
}

/**
 * The condition (and its parameters, numbered from ?1) that `change` strands the row of `columns`;
 * with `clock`, only bookings that are upcoming and still count at that moment: active, not
 * released for non-payment, not started on the clinic's clock.
 */
export function strandedWhere(
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date; upcomingOnly?: boolean },
  columns: StrandColumns = BOOKING_COLUMNS_OF_B,
): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `?${params.length}`;
  };
  const sql = strandedBy(change, columns, param);
  if (clock.upcomingOnly === false) return { where: sql, params };
  const b = columns.alias;
  const today = param(clock.date);
  const upcoming = `${b}.status = 'active' AND ${liveBooking(b, param(clock.now.toISOString()))}
    AND (${columns.date} > ${today} OR (${columns.date} = ${today} AND ${columns.start} > ${param(clock.minute)}))`;
  return { where: `${upcoming} AND ${sql}`, params };
}

const OFFER_COLUMNS: StrandColumns = {
  alias: 'o',
  date: 'o.day',
  start: 'o.start_minute',
  duration: 'o.duration_minutes',
  doctor: 'o.doctor_id',
  chair: 'o.chair_id',
  treatment: 'o.treatment_id',
};

/**
 * The condition (parameters from ?1) that `change` invalidates waitlist offer `o`: open and not
 * expired at the clock's `now`, for a time the change leaves out.
 */
export function offersStrandedWhere(
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
): { where: string; params: unknown[] } {
  const { where, params } = strandedWhere(change, { ...clock, upcomingOnly: false }, OFFER_COLUMNS);
  params.push(clock.now.toISOString());
  return { where: `o.status = 'open' AND o.expires_at > ?${params.length} AND ${where}`, params };
}

/** The clinic's clock at `now`, as strandedWhere takes it. */
export function strandClock(env: Env, now: Date) {
  const clock = clinicNow(env, now);
  return { date: clock.date, minute: clock.minute, now };
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
  email: shownEmail(row.email),
  phone: row.phone,
  doctor: row.doctor_name,
});

/** The upcoming bookings `change` would strand (StrandedRow), by date and time. */
export function strandedBookings(env: Env, change: ScheduleChange, now: Date): D1PreparedStatement {
  const { where, params } = strandedWhere(change, strandClock(env, now));
  return env.DB.prepare(
    `SELECT b.id, b.treatment, b.appointment_date, b.slot, b.patient_name, b.email, b.phone, d.name AS doctor_name
     FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
     WHERE ${where} ORDER BY b.appointment_date, b.start_minute, b.id`,
  ).bind(...params);
}

/** The upcoming bookings `change` would strand, as BookingRows (to cancel them), by date and time. */
export async function strandedBookingRows(env: Env, change: ScheduleChange, now: Date): Promise<BookingRow[]> {
  const { where, params } = strandedWhere(change, strandClock(env, now));
  const { results } = await env.DB.prepare(
    `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS} WHERE ${where} ORDER BY b.appointment_date, b.start_minute, b.id`,
  )
    .bind(...params)
    .all<BookingRow>();
  return results;
}

/** Whether a treatment has upcoming bookings (SQL on treatment ?1, with ?2 today). */
export const HAS_UPCOMING_BOOKINGS = `EXISTS (SELECT 1 FROM bookings b WHERE b.status = 'active' AND b.treatment_id = ?1 AND b.appointment_date >= ?2)`;

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
  hold_until: string | null;
  status: 'active' | 'cancelled' | 'attended' | 'no_show';
  cancel_reason: 'patient' | 'admin' | 'unpaid' | null;
  cancel_note: string | null;
  confirmation: 'unconfirmed' | 'confirmed' | 'callback';
  family_visit_id: string | null;
  /** JSON: the others in the patient's account, [{name, account}] (account: the account holder). */
  family: string;
  needs_review: number;
  no_shows: number;
  /** JSON: the titles of the forms it needs that are missing or expired. */
  forms_missing: string;
  /** JSON: the alerts its patient's answers raise ("Penicillin allergy"). */
  alerts: string;
  expired: number;
  /** The latest refund of its payments, as "<status> <cents>" (e.g. "succeeded 8000"), or null. */
  refund: string | null;
  desk_note: string | null;
  desk_note_version: number;
  version: number;
}

const SCHEDULE_COLUMNS = `b.id, b.user_id, b.patient_name, b.email, b.phone, b.treatment, b.treatment_id,
  b.appointment_date, b.start_minute, b.duration_minutes, b.slot, b.doctor_id, d.name AS doctor_name, b.chair_id,
  c.name AS chair_name, b.price_cents, b.paid, b.hold_until, b.status, b.cancel_reason, b.cancel_note, b.needs_review,
  b.confirmation, b.family_visit_id, b.desk_note, b.desk_note_version, b.version,
  (SELECT json_group_array(json_object('name', m.name, 'account', m.account)) FROM (
     SELECT f.name, f.guardian_id IS NULL AS account FROM users p, users f
      WHERE p.id = b.user_id AND f.id != p.id
        AND (f.id = coalesce(p.guardian_id, p.id) OR f.guardian_id = coalesce(p.guardian_id, p.id))
      ORDER BY account DESC, f.name) m) AS family,
  (SELECT count(*) FROM bookings n WHERE n.user_id = b.user_id AND n.status = 'no_show') AS no_shows,
  (SELECT json_group_array(bf.title) FROM booking_forms bf WHERE bf.booking_id = b.id AND bf.status != 'filled')
    AS forms_missing,
  (SELECT json_group_array(DISTINCT j.value) FROM booking_forms bf JOIN form_responses r ON r.id = bf.response_id,
     json_each(r.alerts) j WHERE bf.booking_id = b.id) AS alerts,
  (SELECT p.refund_status || ' ' || p.refund_amount_cents FROM payments p
    WHERE p.booking_id = b.id AND p.refund_status IS NOT NULL ORDER BY p.refund_updated_at DESC LIMIT 1) AS refund`;
const FROM_SCHEDULE =
  'FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id LEFT JOIN chairs c ON c.id = b.chair_id';

/**
 * Every booking from `from` to `to` (ISO dates, inclusive) but the moved ones (ScheduleRow), by
 * date, start and doctor, with the patient's no-shows; `expired` says an active one's hold ended at `now`.
 */
export function scheduleBetween(db: D1Database, from: string, to: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${SCHEDULE_COLUMNS}, (b.status = 'active' AND ${heldPastItsEnd('b', '?3')}) AS expired ${FROM_SCHEDULE}
       WHERE b.appointment_date BETWEEN ?1 AND ?2 AND b.status != 'moved'
       ORDER BY b.appointment_date, b.start_minute, d.name, b.id`,
    )
    .bind(from, to, now.toISOString());
}

/**
 * The upcoming bookings waiting for the front desk's review (ScheduleRow): active and still
 * counting at `now`, from the clinic's `today` on, marked by a schedule change; by date and time.
 */
export function bookingsToReview(db: D1Database, today: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${SCHEDULE_COLUMNS}, 0 AS expired ${FROM_SCHEDULE}
       WHERE b.needs_review = 1 AND b.status = 'active' AND b.appointment_date >= ?1 AND ${liveBooking('b', '?2')}
       ORDER BY b.appointment_date, b.start_minute, b.id`,
    )
    .bind(today, now.toISOString());
}

/** A booking on the schedule; an active one whose hold ended shows as what it is: released for non-payment. */
export function toScheduleEntry(row: ScheduleRow, env: Env): ScheduleEntry {
  const released = row.expired === 1;
  return {
    _id: row.id,
    userId: row.user_id,
    patientName: row.patient_name,
    email: shownEmail(row.email),
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
    payment: row.paid === 1 || row.price_cents === 0 ? null : row.hold_until === null ? 'clinic' : 'online',
    payBy: row.paid === 1 ? null : row.hold_until,
    status: released ? 'cancelled' : row.status,
    cancelReason: released ? 'unpaid' : row.cancel_reason,
    cancelNote: row.cancel_note,
    confirmation: row.confirmation,
    familyVisitId: row.family_visit_id,
    family: (JSON.parse(row.family) as { name: string; account: number }[]).map((f) => ({
      name: f.name,
      accountHolder: f.account === 1,
    })),
    needsReview: row.needs_review === 1,
    noShows: row.no_shows,
    formsMissing: JSON.parse(row.forms_missing) as string[],
    formsComplete: row.forms_missing === '[]',
    alerts: JSON.parse(row.alerts) as string[],
    note: row.desk_note,
    noteVersion: row.desk_note_version,
    version: row.version,
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
