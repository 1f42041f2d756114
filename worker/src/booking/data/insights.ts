/**
 * The owner's insights (issue 30): aggregates per visit date, computed by D1 on its indexes
 * (bookings_insights, which covers every column the figures read, bookings_by_created,
 * payments_by_booking, waitlist_offers_by_day, recalls_by_due_date: migration 0019), never by
 * reading the bookings into the Worker. `dates` is a JSON array of the dates to compute: the days
 * of the range that no day kept in insight_days answers for (insight-days.ts).
 */
import { liveBooking } from './bookings.ts';

/** SQL: booking `b` kept its time: attended, missed, or active and still counting at ?2. */
const kept = `(b.status IN ('attended', 'no_show') OR (b.status = 'active' AND ${liveBooking('b', '?2')}))`;
/** SQL: booking `b` is a visit: attended, or active and still counting at ?2. */
const visit = `(b.status = 'attended' OR (b.status = 'active' AND ${liveBooking('b', '?2')}))`;
/** SQL: booking `b` is on one of the dates of JSON array ?1. */
const onDates = (column = 'b.appointment_date') => `${column} IN (SELECT value FROM json_each(?1))`;

export interface DayFiguresRow {
  date: string;
  visits: number;
  attended: number;
  no_shows: number;
  by_patient: number;
  by_clinic: number;
  unpaid: number;
  moved: number;
  outstanding_cents: number;
  /** The end of the latest hold still unpaid on the date: until then its figures may change by themselves. */
  open_hold: string | null;
}

/** The visits of each date by what became of them, and what is still to pay. */
export function dayFigures(db: D1Database, dates: string, now: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.appointment_date AS date,
         sum(${visit}) AS visits,
         sum(b.status = 'attended') AS attended,
         sum(b.status = 'no_show') AS no_shows,
         sum(b.status = 'cancelled' AND coalesce(b.cancel_reason, 'patient') = 'patient') AS by_patient,
         sum(b.status = 'cancelled' AND b.cancel_reason = 'admin') AS by_clinic,
         sum((b.status = 'cancelled' AND b.cancel_reason = 'unpaid') OR (b.status = 'active' AND NOT ${liveBooking('b', '?2')})) AS unpaid,
         sum(b.status = 'moved') AS moved,
         sum(CASE WHEN ${visit} AND b.paid = 0 THEN b.price_cents ELSE 0 END) AS outstanding_cents,
         max(CASE WHEN b.status = 'active' AND b.paid = 0 THEN b.hold_until END) AS open_hold
       FROM bookings b WHERE ${onDates()}
       GROUP BY b.appointment_date`,
    )
    .bind(dates, now);
}

export interface ResourceMinutesRow {
  date: string;
  doctor_id: string | null;
  chair_id: string | null;
  minutes: number;
}

/**
 * The minutes booked per date, doctor and chair by the visits that kept their time (one pass over
 * the dates; the Worker sums them per doctor and per chair).
 */
export function resourceMinutes(db: D1Database, dates: string, now: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.appointment_date AS date, b.doctor_id, b.chair_id, sum(b.duration_minutes) AS minutes
       FROM bookings b WHERE ${onDates()} AND ${kept}
       GROUP BY b.appointment_date, b.doctor_id, b.chair_id`,
    )
    .bind(dates, now);
}

export interface MoneyRow {
  date: string;
  revenue_cents: number;
  refunded_cents: number;
}

/** The money taken for the visits of each date, and what was given back of it (refunds done). */
export function moneyPerDay(db: D1Database, dates: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.appointment_date AS date, sum(p.amount_cents) AS revenue_cents,
         sum(CASE WHEN p.refund_status = 'succeeded' THEN coalesce(p.refund_amount_cents, p.amount_cents) ELSE 0 END)
           AS refunded_cents
       FROM bookings b JOIN payments p ON p.booking_id = b.id
       WHERE ${onDates()}
       GROUP BY b.appointment_date`,
    )
    .bind(dates);
}

/**
 * The bookings made on each day, by the clinic's calendar: `days` is JSON [[date, first instant,
 * next day's first instant], …] (ISO, UTC), so a day across a daylight-saving change lasts 23 or 25
 * hours. A booking a move created is not made: the move is counted where the visit was.
 */
export function madePerDay(db: D1Database, days: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT d.value ->> '$[0]' AS date, count(*) AS made
       FROM json_each(?1) d JOIN bookings b ON b.created_at >= d.value ->> '$[1]' AND b.created_at < d.value ->> '$[2]'
       WHERE NOT EXISTS (SELECT 1 FROM bookings o WHERE o.moved_to = b.id)
       GROUP BY d.value ->> '$[0]'`,
    )
    .bind(days);
}

export interface LeadRow {
  days: number;
  visits: number;
}

/**
 * How many visits of each date that kept their time were booked how many days ahead (the day booked
 * on the clinic's calendar to the visit's day): the percentiles are read off this histogram.
 * `shifts` are the clinic's offsets from UTC, [from instant, "-300 minutes"] ascending, the first
 * from "" (utcShifts): SQLite has no time zones, so each instant is shifted by the offset of its time.
 */
export function leadTimes(db: D1Database, dates: string, now: string, shifts: [string, string][]): D1PreparedStatement {
  // Newest first: the first shift that began by the booking's instant is the one in force.
  const newestFirst = [...shifts].reverse();
  const cases = newestFirst.map((_, i) => `WHEN b.created_at >= ?${3 + 2 * i} THEN ?${4 + 2 * i}`).join(' ');
  return db
    .prepare(
      `SELECT b.appointment_date AS date,
         julianday(b.appointment_date) - julianday(date(b.created_at, CASE ${cases} END)) AS days, count(*) AS visits
       FROM bookings b WHERE ${onDates()} AND ${kept}
       GROUP BY 1, 2`,
    )
    .bind(dates, now, ...newestFirst.flat());
}

export interface OffersRow {
  date: string;
  offers: number;
  accepted: number;
}

/** The waitlist's offers of a time on each date, and those taken. */
export function offersPerDay(db: D1Database, dates: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT day AS date, count(*) AS offers, sum(status = 'accepted') AS accepted
       FROM waitlist_offers WHERE ${onDates('day')} GROUP BY day`,
    )
    .bind(dates);
}

/** The recalls due in the range, and those booked. */
export function recallsDue(db: D1Database, from: string, to: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT count(*) AS due, coalesce(sum(booking_id IS NOT NULL), 0) AS booked
       FROM recalls WHERE due_date BETWEEN ?1 AND ?2`,
    )
    .bind(from, to);
}

export interface HourRow {
  date: string;
  hour: number;
  minutes: number;
}

/** The chairs' booked minutes by date and hour of the clinic's clock. */
export function chairMinutesByHour(db: D1Database, dates: string, now: string): D1PreparedStatement {
  return db
    .prepare(
      `WITH RECURSIVE hours (hour) AS (SELECT 0 UNION ALL SELECT hour + 1 FROM hours WHERE hour < 23),
       times AS (
         SELECT b.appointment_date AS date, b.start_minute AS start, b.start_minute + b.duration_minutes AS end,
           count(*) AS visits
         FROM bookings b WHERE ${onDates()} AND b.chair_id IS NOT NULL AND ${kept}
         GROUP BY 1, 2, 3)
       SELECT t.date, h.hour, sum(t.visits * (min(t.end, h.hour * 60 + 60) - max(t.start, h.hour * 60))) AS minutes
       FROM times t JOIN hours h ON h.hour * 60 < t.end AND h.hour * 60 + 60 > t.start
       GROUP BY 1, 2`,
    )
    .bind(dates, now);
}

/** Every weekday's opening hours, every doctor's hours, and the closures touching the range. */
export function scheduleOfRange(db: D1Database, from: string, to: string): D1PreparedStatement[] {
  return [
    db.prepare('SELECT weekday, open_minute, close_minute FROM clinic_hours'),
    db.prepare(
      `SELECT d.id, d.name, h.weekday, h.start_minute, h.end_minute
       FROM doctors d LEFT JOIN doctor_hours h ON h.doctor_id = d.id ORDER BY d.created_at, d.name, d.id`,
    ),
    db.prepare('SELECT id, name FROM chairs ORDER BY position, id'),
    db
      .prepare('SELECT from_date, to_date, doctor_id FROM closures WHERE to_date >= ?1 AND from_date <= ?2')
      .bind(from, to),
  ];
}
