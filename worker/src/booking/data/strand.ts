/** What a change of the clinic's setup strands: the SQL conditions on bookings and offers, and the rows they find. */
import type { StrandedBooking } from '../../../../contract/bookings.ts';
import { clinicNow, displayDate } from '../../platform/clinic-time.ts';
import type { Env } from '../../platform/env.ts';
import { BOOKING_COLUMNS, type BookingRow, FROM_BOOKINGS, liveBooking, shownEmail } from './bookings.ts';

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
