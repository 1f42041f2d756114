/**
 * The front desk's view of the schedule (issue 15): a day's bookings with their doctors and chairs,
 * the bookings per day of a range, and a range as CSV for a spreadsheet.
 */

import { stringify } from 'csv-stringify/sync';
import { datesBetween } from '../../../contract/fields.ts';
import {
  type DayCount,
  MAX_SCHEDULE_RANGE_DAYS,
  type ReviewEntry,
  type ScheduleAnswer,
} from '../../../contract/schedule.ts';
import { chairsInOrder } from '../clinic/data/chairs.ts';
import { clockOf, type HoursRow, hoursOnWeekday } from '../clinic/data/clinic-hours.ts';
import { closureReasonsOn } from '../clinic/data/closures.ts';
import { type RosterRow, roster } from '../clinic/data/doctors.ts';
import { clinicNow, displayDate, weekdayOf } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { bookingsToReview, countsPerDay, type ScheduleRow, scheduleBetween, toScheduleEntry } from './data/schedule.ts';
import { clinicClosedDays } from './schedule.ts';

/**
 * GET /api/schedule?date= (admin): the day's opening hours, closures, doctors (those who work that
 * weekday, and any other with a booking that day), chairs and bookings, in one D1 round trip.
 * GET /api/schedule?from=&to=: the appointments per day of the range, every day listed.
 */
export async function getSchedule(request: Request, env: Env): Promise<Response> {
  const query = inputOf(request, 'GET /schedule').query;
  const now = clock();
  if (query.date === undefined) {
    const from = query.from ?? '';
    const to = query.to ?? '';
    const dates = datesBetween(from, to, MAX_SCHEDULE_RANGE_DAYS);
    const [counts, closed] = await Promise.all([
      countsPerDay(env.DB, from, to, now).then((rows) => new Map(rows.map((c) => [c.date, c.count]))),
      clinicClosedDays(env, dates),
    ]);
    return json(
      dates.map(
        (date): DayCount => ({ date, count: counts.get(date) ?? 0, closed: closed.get(date) ?? null }),
      ) satisfies ScheduleAnswer,
    );
  }
  const date = query.date;
  const weekday = weekdayOf(date);
  const [hours, closures, doctors, chairs, bookings] = await env.DB.batch([
    hoursOnWeekday(env.DB, weekday),
    closureReasonsOn(env.DB, date),
    roster(env.DB),
    chairsInOrder(env.DB),
    scheduleBetween(env.DB, date, date, now),
  ]);
  const rows = <T>(result: D1Result | undefined) => (result?.results ?? []) as T[];
  const open = rows<HoursRow>(hours)[0];
  const entries = rows<ScheduleRow>(bookings).map((row) => toScheduleEntry(row, env));
  const booked = new Set(entries.map((entry) => entry.doctor?._id));
  return json({
    date,
    appointmentDate: displayDate(date),
    hours: open ? { open: clockOf(open.open_minute), close: clockOf(open.close_minute) } : null,
    closures: rows<{ reason: string; doctor_id: string | null }>(closures).map((c) => ({
      reason: c.reason,
      doctorId: c.doctor_id,
    })),
    doctors: rows<RosterRow>(doctors)
      .filter((d) => (d.working_days >> weekday) & 1 || booked.has(d.id))
      .map((d) => ({ _id: d.id, name: d.name, specialty: d.specialty })),
    chairs: rows<{ id: string; name: string }>(chairs).map((c) => ({ _id: c.id, name: c.name })),
    bookings: entries,
  } satisfies ScheduleAnswer);
}

const STATUS_TEXT = { active: 'Booked', cancelled: 'Cancelled', attended: 'Attended', no_show: 'No-show' } as const;
const REFUND_TEXT: Record<string, string> = {
  due: 'to give back',
  pending: 'being refunded',
  succeeded: 'refunded',
  failed: 'refund failed',
};

/** A booking's refund for the CSV: "80.00 refunded", or '' when none. */
function refundText(refund: string | null): string {
  if (!refund) return '';
  const [status = '', cents = '0'] = refund.split(' ');
  return `${(Number(cents) / 100).toFixed(2)} ${REFUND_TEXT[status] ?? status}`;
}

/**
 * GET /api/schedule.csv?from=&to= (admin): every booking of the range but the moved ones, one row
 * each with a header row, as a front desk pastes it into a spreadsheet: RFC 4180 (every field
 * quoted, quotes doubled, CRLF), and a cell that a spreadsheet would read as a formula (starting
 * with =, +, -, @, a tab or a carriage return) is prefixed with ' so that it stays text.
 */
export async function scheduleCsv(request: Request, env: Env): Promise<Response> {
  const { from, to } = inputOf(request, 'GET /schedule.csv').query;
  const { results } = await scheduleBetween(env.DB, from, to, clock()).all<ScheduleRow>();
  const records = results.map((row) => {
    const entry = toScheduleEntry(row, env);
    return [
      row.appointment_date,
      entry.start,
      clockOf(entry.startMinute + entry.durationMinutes),
      entry.durationMinutes,
      entry.patientName,
      entry.email,
      entry.phone,
      entry.treatment,
      entry.doctor?.name ?? '',
      entry.chair?.name ?? '',
      entry.price.toFixed(2),
      entry.paid ? 'yes' : 'no',
      refundText(row.refund),
      STATUS_TEXT[entry.status],
      entry.cancelNote ?? '',
      entry.noShows,
      entry.needsReview ? 'yes' : 'no',
    ];
  });
  const header = [
    'Date',
    'Start',
    'End',
    'Minutes',
    'Patient',
    'Email',
    'Phone',
    'Treatment',
    'Doctor',
    'Chair',
    'Price',
    'Paid',
    'Refund',
    'Status',
    'Cancellation note',
    'No-shows',
    'Needs review',
  ];
  const csv = stringify([header, ...records], { quoted: true, escape_formulas: true, record_delimiter: 'windows' });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="schedule-${from}-to-${to}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}

/** GET /api/schedule/review (admin): the upcoming bookings waiting for the front desk, by date and time. */
export async function getReviewList(_request: Request, env: Env): Promise<Response> {
  const now = clock();
  const { results } = await bookingsToReview(env.DB, clinicNow(env, now).date, now).all<ScheduleRow>();
  return json(
    results.map(
      (row): ReviewEntry => ({
        ...toScheduleEntry(row, env),
        date: row.appointment_date,
        appointmentDate: displayDate(row.appointment_date),
      }),
    ),
  );
}
