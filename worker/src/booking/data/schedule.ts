/** The day's schedule as the desk sees it: its rows, the bookings to review, the counts per day. */
import type { Fee } from '../../../../contract/fees.ts';
import type { DayCount, ScheduleEntry } from '../../../../contract/schedule.ts';
import { clockOf } from '../../clinic/data/clinic-hours.ts';
import { clinicInstant } from '../../platform/clinic-time.ts';
import type { Env } from '../../platform/env.ts';
import { BALANCE_DUE, heldPastItsEnd, liveBooking, shownEmail } from './bookings.ts';

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
  no_show_fee_cents: number;
  deposit_cents: number | null;
  balance_due_cents: number;
  /** The visit's latest fee (money/fees.ts) as JSON {_id, kind, cents, status}, or null. */
  fee: string | null;
}

const SCHEDULE_COLUMNS = `b.id, b.user_id, b.patient_name, b.email, b.phone, b.treatment, b.treatment_id,
  b.appointment_date, b.start_minute, b.duration_minutes, b.slot, b.doctor_id, d.name AS doctor_name, b.chair_id,
  c.name AS chair_name, b.price_cents, b.paid, b.hold_until, b.status, b.cancel_reason, b.cancel_note, b.needs_review,
  b.confirmation, b.family_visit_id, b.desk_note, b.desk_note_version, b.version, b.no_show_fee_cents,
  b.deposit_cents, ${BALANCE_DUE('b')} AS balance_due_cents,
  (SELECT json_object('_id', f.id, 'kind', f.kind, 'cents', f.amount_cents, 'status', f.status) FROM fees f
    WHERE f.booking_id = b.id ORDER BY f.created_at DESC LIMIT 1) AS fee,
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

function feeOf(json: string | null): ScheduleEntry['fee'] {
  if (!json) return null;
  const fee = JSON.parse(json) as { _id: string; kind: 'no_show' | 'late_cancel'; cents: number; status: string };
  return { _id: fee._id, kind: fee.kind, amount: fee.cents / 100, status: fee.status as Fee['status'] };
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
    deposit: row.deposit_cents === null ? null : row.deposit_cents / 100,
    balanceDue: row.balance_due_cents / 100,
    noShowFee: row.no_show_fee_cents / 100,
    fee: feeOf(row.fee),
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
