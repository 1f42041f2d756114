/**
 * GET /api/insights?from=&to= (admin, issue 30): how full each doctor and chair was, what became of
 * the visits, the money, the waitlist and the recalls, per day of the clinic's calendar and in total.
 * The bookings are aggregated by D1 (data/insights.ts); the Worker reads only the aggregates and
 * the clinic's hours and closures, from which it counts the open minutes.
 */
import { addCalendarDays, datesBetween } from '../../../contract/fields.ts';
import { type InsightsAnswer, type InsightsDay, MAX_INSIGHTS_RANGE_DAYS } from '../../../contract/insights.ts';
import { clinicMidnight, utcShifts, weekdayOf } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import {
  chairMinutesByHour,
  type DayFiguresRow,
  dayFigures,
  type HourRow,
  type LeadRow,
  leadTimes,
  type MoneyRow,
  madePerDay,
  moneyPerDay,
  type OffersRow,
  offersPerDay,
  type ResourceMinutesRow,
  recallsDue,
  resourceMinutes,
  scheduleOfRange,
} from './data/insights.ts';

/** How far back a visit's booking may have been made, for its lead time's calendar. */
const LEAD_TIME_LOOKBACK_DAYS = 2 * 366;

type Hours = { open: number; close: number };
type Figures = Omit<InsightsDay, 'date'>;
type Resource = { _id: string; name: string; hours: Map<number, Hours> };

const overlap = (a: Hours, b: Hours) => Math.max(0, Math.min(a.close, b.close) - Math.max(a.open, b.open));
const dollars = (cents: number) => Math.round(cents) / 100;

function emptyFigures(doctors: Resource[], chairs: Resource[]): Figures {
  const time = (r: Resource) => ({ _id: r._id, name: r.name, bookedMinutes: 0, openMinutes: 0 });
  return {
    bookedMinutes: 0,
    openMinutes: 0,
    doctors: doctors.map(time),
    chairs: chairs.map(time),
    made: 0,
    visits: 0,
    attended: 0,
    noShows: 0,
    cancelled: 0,
    cancelledBy: { patient: 0, clinic: 0, unpaid: 0 },
    moved: 0,
    revenue: 0,
    refunded: 0,
    outstanding: 0,
    offers: 0,
    offersAccepted: 0,
  };
}

const SUMMED = [
  'bookedMinutes',
  'openMinutes',
  'made',
  'visits',
  'attended',
  'noShows',
  'cancelled',
  'moved',
  'revenue',
  'refunded',
  'outstanding',
  'offers',
  'offersAccepted',
] as const;

/** Adds a day's figures into the totals (money in cents until the end, so that no cent is lost). */
function addInto(total: Figures, day: Figures): void {
  for (const key of SUMMED) total[key] += day[key];
  for (const key of ['patient', 'clinic', 'unpaid'] as const) total.cancelledBy[key] += day.cancelledBy[key];
  for (const [list, daily] of [
    [total.doctors, day.doctors],
    [total.chairs, day.chairs],
  ] as const) {
    list.forEach((entry, i) => {
      entry.bookedMinutes += daily[i]?.bookedMinutes ?? 0;
      entry.openMinutes += daily[i]?.openMinutes ?? 0;
    });
  }
}

/** The nearest-rank percentile of a histogram of lead times, ascending: the smallest value at rank ⌈p·N⌉. */
function nearestRank(leads: LeadRow[], p: number): number {
  const total = leads.reduce((sum, l) => sum + l.visits, 0);
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const lead of leads) {
    seen += lead.visits;
    if (seen >= rank) return lead.days;
  }
  return leads.at(-1)?.days ?? 0;
}

export async function getInsights(request: Request, env: Env): Promise<Response> {
  const { from, to } = inputOf(request, 'GET /insights').query;
  const now = clock().toISOString();
  const dates = datesBetween(from, to, MAX_INSIGHTS_RANGE_DAYS);
  const after = addCalendarDays(to, 1);
  const midnights = [...dates, after].map((date) => clinicMidnight(env, date).toISOString());
  const bounds = dates.map((date, i) => [date, midnights[i], midnights[i + 1]]);
  const shifts = utcShifts(
    env,
    clinicMidnight(env, addCalendarDays(from, -LEAD_TIME_LOOKBACK_DAYS)),
    clinicMidnight(env, after),
  );
  const results = await env.DB.batch([
    ...scheduleOfRange(env.DB, from, to),
    dayFigures(env.DB, from, to, now),
    resourceMinutes(env.DB, from, to, now),
    moneyPerDay(env.DB, from, to),
    madePerDay(env.DB, JSON.stringify(bounds)),
    leadTimes(env.DB, from, to, now, shifts),
    offersPerDay(env.DB, from, to),
    recallsDue(env.DB, from, to),
    chairMinutesByHour(env.DB, from, to, now),
  ]);
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
  const clinicHours = new Map(
    rows<{ weekday: number; open_minute: number; close_minute: number }>(0).map((h) => [
      h.weekday,
      { open: h.open_minute, close: h.close_minute },
    ]),
  );
  const doctors: Resource[] = [];
  for (const row of rows<{
    id: string;
    name: string;
    weekday: number | null;
    start_minute: number;
    end_minute: number;
  }>(1)) {
    let doctor = doctors.at(-1);
    if (doctor?._id !== row.id) {
      doctor = { _id: row.id, name: row.name, hours: new Map() };
      doctors.push(doctor);
    }
    if (row.weekday !== null) doctor.hours.set(row.weekday, { open: row.start_minute, close: row.end_minute });
  }
  const chairs: Resource[] = rows<{ id: string; name: string }>(2).map((c) => ({
    _id: c.id,
    name: c.name,
    hours: new Map(),
  }));
  const closures = rows<{ from_date: string; to_date: string; doctor_id: string | null }>(3);
  const byDate = <T extends { date: string }>(i: number) => new Map(rows<T>(i).map((r) => [r.date, r]));
  const figures = byDate<DayFiguresRow>(4);
  const booked = new Map<string, number>();
  const add = (key: string, minutes: number) => booked.set(key, (booked.get(key) ?? 0) + minutes);
  for (const r of rows<ResourceMinutesRow>(5)) {
    if (r.doctor_id) add(`${r.date} doctor:${r.doctor_id}`, r.minutes);
    if (r.chair_id) add(`${r.date} chair:${r.chair_id}`, r.minutes);
  }
  const money = byDate<MoneyRow>(6);
  const made = byDate<{ date: string; made: number }>(7);
  const leads = rows<LeadRow>(8);
  const offers = byDate<OffersRow>(9);
  const recalls = rows<{ due: number; booked: number }>(10)[0] ?? { due: 0, booked: 0 };
  const openDays = new Map<number, number>();

  const days = dates.map((date): InsightsDay => {
    const weekday = weekdayOf(date);
    const closedFor = (doctorId: string | null) =>
      closures.some((c) => c.from_date <= date && date <= c.to_date && c.doctor_id === doctorId);
    const open = closedFor(null) ? undefined : clinicHours.get(weekday);
    if (open) openDays.set(weekday, (openDays.get(weekday) ?? 0) + 1);
    const day: InsightsDay = { date, ...emptyFigures(doctors, chairs) };
    const time = (kind: 'doctor' | 'chair', r: Resource, openMinutes: number) => ({
      _id: r._id,
      name: r.name,
      bookedMinutes: booked.get(`${date} ${kind}:${r._id}`) ?? 0,
      openMinutes,
    });
    day.doctors = doctors.map((d) => {
      const own = d.hours.get(weekday);
      return time('doctor', d, open && own && !closedFor(d._id) ? overlap(open, own) : 0);
    });
    day.chairs = chairs.map((c) => time('chair', c, open ? open.close - open.open : 0));
    day.bookedMinutes = day.chairs.reduce((sum, c) => sum + c.bookedMinutes, 0);
    day.openMinutes = day.chairs.reduce((sum, c) => sum + c.openMinutes, 0);
    const f = figures.get(date);
    if (f) {
      day.visits = f.visits;
      day.attended = f.attended;
      day.noShows = f.no_shows;
      day.cancelledBy = { patient: f.by_patient, clinic: f.by_clinic, unpaid: f.unpaid };
      day.cancelled = f.by_patient + f.by_clinic + f.unpaid;
      day.moved = f.moved;
      day.outstanding = f.outstanding_cents;
    }
    day.revenue = money.get(date)?.revenue_cents ?? 0;
    day.refunded = money.get(date)?.refunded_cents ?? 0;
    day.made = made.get(date)?.made ?? 0;
    day.offers = offers.get(date)?.offers ?? 0;
    day.offersAccepted = offers.get(date)?.accepted ?? 0;
    return day;
  });

  const totals = emptyFigures(doctors, chairs);
  for (const day of days) addInto(totals, day);
  for (const list of [days, [totals]]) {
    for (const figuresOf of list) {
      figuresOf.revenue = dollars(figuresOf.revenue);
      figuresOf.refunded = dollars(figuresOf.refunded);
      figuresOf.outstanding = dollars(figuresOf.outstanding);
    }
  }
  const bookedByHour = new Map(rows<HourRow>(11).map((h) => [`${h.weekday} ${h.hour}`, h.minutes]));
  const hours: InsightsAnswer['hours'] = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    const open = clinicHours.get(weekday);
    for (let hour = 0; hour < 24; hour++) {
      const openMinutes =
        open && (openDays.get(weekday) ?? 0) > 0
          ? overlap(open, { open: hour * 60, close: hour * 60 + 60 }) * chairs.length * (openDays.get(weekday) ?? 0)
          : 0;
      const bookedMinutes = bookedByHour.get(`${weekday} ${hour}`) ?? 0;
      if (openMinutes > 0 || bookedMinutes > 0) hours.push({ weekday, hour, bookedMinutes, openMinutes });
    }
  }
  const marked = totals.attended + totals.noShows;
  return json({
    from,
    to,
    timeZone: env.CLINIC_TIME_ZONE,
    totals: {
      ...totals,
      noShowRate: marked > 0 ? totals.noShows / marked : null,
      leadTimeDays: leads.length > 0 ? { median: nearestRank(leads, 0.5), p90: nearestRank(leads, 0.9) } : null,
      recalls: {
        due: recalls.due,
        booked: recalls.booked,
        rate: recalls.due > 0 ? recalls.booked / recalls.due : null,
      },
    },
    days,
    hours,
  } satisfies InsightsAnswer);
}
