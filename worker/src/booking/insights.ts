/**
 * GET /api/insights?from=&to= (admin, issue 30): how full each doctor and chair was, what became of
 * the visits, the money, the waitlist and the recalls, per day of the clinic's calendar and in total.
 * The bookings are aggregated by D1 (data/insights.ts) per day, and each settled day's aggregates
 * are kept until a domain event changes it (data/insight-days.ts); the Worker reads only
 * the aggregates and the clinic's hours and closures, from which it counts the open minutes.
 */
import { addCalendarDays, datesBetween } from '../../../contract/fields.ts';
import { type InsightsAnswer, type InsightsDay, MAX_INSIGHTS_RANGE_DAYS } from '../../../contract/insights.ts';
import { clinicMidnight, utcShifts, weekdayOf } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import {
  changedDates,
  type KeptDay,
  type KeptDayRow,
  keepDays,
  keptDays,
  latestEvent,
  watermark,
} from './data/insight-days.ts';
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

type ComputedDay = KeptDay & { openHold: string | null };

/** The statements that compute the booking aggregates of `dates`, per date, and the newest event they reflect. */
function dayStatements(env: Env, dates: string[], now: string): D1PreparedStatement[] {
  const list = JSON.stringify(dates);
  const bounds = dates.map((date) => [
    date,
    clinicMidnight(env, date).toISOString(),
    clinicMidnight(env, addCalendarDays(date, 1)).toISOString(),
  ]);
  const shifts = utcShifts(
    env,
    clinicMidnight(env, addCalendarDays(dates[0] ?? '', -LEAD_TIME_LOOKBACK_DAYS)),
    clinicMidnight(env, addCalendarDays(dates.at(-1) ?? '', 1)),
  );
  return [
    dayFigures(env.DB, list, now),
    resourceMinutes(env.DB, list, now),
    moneyPerDay(env.DB, list),
    madePerDay(env.DB, JSON.stringify(bounds)),
    leadTimes(env.DB, list, now, shifts),
    offersPerDay(env.DB, list),
    chairMinutesByHour(env.DB, list, now),
    latestEvent(env.DB),
  ];
}

/** The days dayStatements computed, from its results. */
function readDays(results: D1Result[], dates: string[]) {
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
  const days = new Map<string, ComputedDay>(
    dates.map((date) => [
      date,
      { figures: null, resources: [], money: [0, 0], made: 0, leads: [], offers: [0, 0], hours: [], openHold: null },
    ]),
  );
  const dayOf = (date: string) => days.get(date) as ComputedDay;
  for (const f of rows<DayFiguresRow>(0)) {
    const day = dayOf(f.date);
    day.figures = [f.visits, f.attended, f.no_shows, f.by_patient, f.by_clinic, f.unpaid, f.moved, f.outstanding_cents];
    day.openHold = f.open_hold;
  }
  for (const r of rows<ResourceMinutesRow>(1)) dayOf(r.date).resources.push([r.doctor_id, r.chair_id, r.minutes]);
  for (const m of rows<MoneyRow>(2)) dayOf(m.date).money = [m.revenue_cents, m.refunded_cents];
  for (const m of rows<{ date: string; made: number }>(3)) dayOf(m.date).made = m.made;
  for (const l of rows<LeadRow & { date: string }>(4)) dayOf(l.date).leads.push([l.days, l.visits]);
  for (const o of rows<OffersRow>(5)) dayOf(o.date).offers = [o.offers, o.accepted];
  for (const h of rows<HourRow>(6)) dayOf(h.date).hours.push([h.hour, h.minutes]);
  return { days, computedSeq: rows<{ seq: number }>(7)[0]?.seq ?? 0 };
}

export async function getInsights(request: Request, env: Env): Promise<Response> {
  const { from, to } = inputOf(request, 'GET /insights').query;
  const now = clock().toISOString();
  const dates = datesBetween(from, to, MAX_INSIGHTS_RANGE_DAYS);
  const results = await env.DB.batch([
    ...scheduleOfRange(env.DB, from, to),
    recallsDue(env.DB, from, to),
    watermark(env.DB),
    changedDates(env.DB),
    keptDays(env.DB, from, to),
  ]);
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];

  // A kept day answers unless the events changed it since the mark, it was kept in another time
  // zone, or the clock is before its last hold ran out; the others are computed in a second batch.
  const mark = rows<{ watermark: number; latest: number }>(5)[0] ?? { watermark: 0, latest: 0 };
  const changed = rows<{ date: string }>(6).map((r) => r.date);
  const changedSet = new Set(changed);
  const perDay = new Map<string, KeptDay>();
  for (const row of rows<KeptDayRow>(7)) {
    const holds = row.time_zone === env.CLINIC_TIME_ZONE && (row.settled_at === null || row.settled_at <= now);
    if (holds && !changedSet.has(row.date)) perDay.set(row.date, JSON.parse(row.figures) as KeptDay);
  }
  const missing = dates.filter((date) => !perDay.has(date));
  const computed = missing.length > 0 ? readDays(await env.DB.batch(dayStatements(env, missing, now)), missing) : null;
  const settled: [string, KeptDay, string | null][] = [];
  for (const [date, { openHold, ...day }] of computed?.days ?? []) {
    perDay.set(date, day);
    if (openHold === null || openHold <= now) settled.push([date, day, openHold]);
  }
  if (changed.length > 0 || mark.latest > mark.watermark || settled.length > 0) {
    await env.DB.batch(
      keepDays(env.DB, {
        changed,
        seen: mark.latest,
        days: settled,
        computedSeq: computed?.computedSeq ?? 0,
        timeZone: env.CLINIC_TIME_ZONE,
      }),
    );
  }

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
  const recalls = rows<{ due: number; booked: number }>(4)[0] ?? { due: 0, booked: 0 };
  const leadsByDays = new Map<number, number>();
  const bookedByHour = new Map<string, number>();
  for (const [date, day] of perDay) {
    for (const [days, visits] of day.leads) leadsByDays.set(days, (leadsByDays.get(days) ?? 0) + visits);
    for (const [hour, minutes] of day.hours) {
      const key = `${weekdayOf(date)} ${hour}`;
      bookedByHour.set(key, (bookedByHour.get(key) ?? 0) + minutes);
    }
  }
  const leads: LeadRow[] = [...leadsByDays].map(([days, visits]) => ({ days, visits })).sort((a, b) => a.days - b.days);
  const openDays = new Map<number, number>();

  const days = dates.map((date): InsightsDay => {
    const weekday = weekdayOf(date);
    const closedFor = (doctorId: string | null) =>
      closures.some((c) => c.from_date <= date && date <= c.to_date && c.doctor_id === doctorId);
    const open = closedFor(null) ? undefined : clinicHours.get(weekday);
    if (open) openDays.set(weekday, (openDays.get(weekday) ?? 0) + 1);
    const day: InsightsDay = { date, ...emptyFigures(doctors, chairs) };
    const kept = perDay.get(date);
    const booked = new Map<string, number>();
    for (const [doctorId, chairId, minutes] of kept?.resources ?? []) {
      if (doctorId) booked.set(`doctor:${doctorId}`, (booked.get(`doctor:${doctorId}`) ?? 0) + minutes);
      if (chairId) booked.set(`chair:${chairId}`, (booked.get(`chair:${chairId}`) ?? 0) + minutes);
    }
    const time = (kind: 'doctor' | 'chair', r: Resource, openMinutes: number) => ({
      _id: r._id,
      name: r.name,
      bookedMinutes: booked.get(`${kind}:${r._id}`) ?? 0,
      openMinutes,
    });
    day.doctors = doctors.map((d) => {
      const own = d.hours.get(weekday);
      return time('doctor', d, open && own && !closedFor(d._id) ? overlap(open, own) : 0);
    });
    day.chairs = chairs.map((c) => time('chair', c, open ? open.close - open.open : 0));
    day.bookedMinutes = day.chairs.reduce((sum, c) => sum + c.bookedMinutes, 0);
    day.openMinutes = day.chairs.reduce((sum, c) => sum + c.openMinutes, 0);
    if (kept?.figures) {
      const [visits, attended, noShows, byPatient, byClinic, unpaid, moved, outstanding] = kept.figures;
      Object.assign(day, { visits, attended, noShows, moved, outstanding });
      day.cancelledBy = { patient: byPatient, clinic: byClinic, unpaid };
      day.cancelled = byPatient + byClinic + unpaid;
    }
    if (kept) {
      [day.revenue, day.refunded] = kept.money;
      day.made = kept.made;
      [day.offers, day.offersAccepted] = kept.offers;
    }
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
