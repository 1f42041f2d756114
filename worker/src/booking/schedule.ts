/**
 * The schedule model (issue 14): who is free when, computed from one batch of reads.
 *
 * A day is 96 cells of 15 minutes on the clinic's wall clock. Resources are doctors and chairs; a
 * booking claims every cell of its length on one doctor of its treatment's specialty and on one
 * chair (the claims table's primary key makes an overlap impossible). A start is offered for a
 * treatment when, for its whole length, the clinic is open, not closed, and some qualified doctor
 * who works then (and is not away) and some chair are both free. Starts step by 30 minutes from
 * opening time: 09:00, 09:30, … for every length.
 */

import { scheduleChairs } from '../clinic/data/chairs.ts';
import { type HoursRow, hoursOnWeekday, weekHours } from '../clinic/data/clinic-hours.ts';
import { clinicClosuresBetween, closuresOn, type DayClosureRow } from '../clinic/data/closures.ts';
import { doctorById, type ScheduleDoctorRow, scheduleDoctors } from '../clinic/data/doctors.ts';
import { scheduleTreatments, type TreatmentRow } from '../clinic/data/treatments.ts';
import { isRegularDay, isWholeInterval, weekdayOf } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';
import { type ClaimRow, chairResource, doctorResource, liveClaimsOn } from './data/claims.ts';

export const CELL_MINUTES = 15;
/** Starts step by this much from opening time, whatever the treatment's length. */
export const START_STEP_MINUTES = 30;
const CELLS_PER_DAY = (24 * 60) / CELL_MINUTES;

export interface Day {
  date: string;
  /** Opening and closing minute; null when the clinic is closed that day (no hours, or a closure). */
  hours: { open: number; close: number } | null;
  /** Every treatment, active or not, in the clinic's order. */
  treatments: TreatmentRow[];
  /** The doctors who work that weekday and are not away that date, with their hours that day. */
  doctors: ScheduleDoctorRow[];
  chairs: string[];
  /** The cells each resource has claimed (live claims only). */
  taken: Map<string, Uint8Array>;
  /** How many cells each resource has claimed that day: the load a booking spreads. */
  load: Map<string, number>;
  /** Whether every wall-clock interval of the day lasts what it says (no daylight-saving change). */
  regular: boolean;
  /** Why the clinic is closed that day (a closure's reason, or no hours that weekday); null when it opens. */
  closed: string | null;
  /** The doctors away that day (a closure of theirs): their id, specialty, name and reason. */
  away: { doctorId: string; specialtyId: string; name: string; reason: string }[];
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * Why `treatment` cannot be booked at all on `day` because something is closed: the clinic (its
 * closure, or no hours that weekday), or every doctor who could see it away. Null otherwise (its
 * times may still all be taken: that is full, not closed).
 */
export function closedFor(day: Day, treatment: TreatmentRow): string | null {
  if (day.closed) return day.closed;
  if (day.doctors.some((d) => d.specialty_id === treatment.specialty_id)) return null;
  const away = day.away.filter((d) => d.specialtyId === treatment.specialty_id);
  return away.length > 0 ? away.map((d) => `${d.name} is away: ${d.reason}`).join('; ') : null;
}

/**
 * Everything the day's availability depends on, in one D1 round trip. `ignoreBooking`: a booking
 * being moved, whose own claims must not keep it from moving into time that overlaps its own.
 */
export async function readDay(env: Env, isoDate: string, now: Date, ignoreBooking?: string): Promise<Day> {
  const weekday = weekdayOf(isoDate);
  const [treatments, hours, closures, doctors, chairs, claims] = await env.DB.batch([
    scheduleTreatments(env.DB),
    hoursOnWeekday(env.DB, weekday),
    closuresOn(env.DB, isoDate),
    scheduleDoctors(env.DB, weekday),
    scheduleChairs(env.DB),
    liveClaimsOn(env.DB, isoDate, now),
  ]);
  const rows = <T>(result: D1Result | undefined) => (result?.results ?? []) as T[];
  const closedBy = rows<DayClosureRow>(closures);
  const away = new Set(closedBy.map((c) => c.doctor_id));
  const open = rows<HoursRow>(hours)[0];
  const working = rows<ScheduleDoctorRow>(doctors);
  const taken = new Map<string, Uint8Array>();
  const load = new Map<string, number>();
  for (const claim of rows<ClaimRow>(claims)) {
    if (ignoreBooking !== undefined && claim.booking_id === ignoreBooking) continue;
    const cells = taken.get(claim.resource) ?? new Uint8Array(CELLS_PER_DAY);
    taken.set(claim.resource, cells);
    cells[claim.cell] = 1;
    load.set(claim.resource, (load.get(claim.resource) ?? 0) + 1);
  }
  return {
    date: isoDate,
    hours: open && !away.has(null) ? { open: open.open_minute, close: open.close_minute } : null,
    treatments: rows<TreatmentRow>(treatments),
    doctors: working.filter((d) => !away.has(d.id)),
    chairs: rows<{ id: string }>(chairs).map((c) => c.id),
    taken,
    load,
    regular: isRegularDay(env, isoDate),
    closed: away.has(null)
      ? (closedBy.find((c) => c.doctor_id === null)?.reason ?? 'Closed')
      : open
        ? null
        : `The clinic does not open on ${WEEKDAYS[weekday]}s`,
    away: closedBy.flatMap((c) => {
      const doctor = working.find((d) => d.id === c.doctor_id);
      return doctor && c.doctor
        ? [{ doctorId: doctor.id, specialtyId: doctor.specialty_id, name: c.doctor, reason: c.reason }]
        : [];
    }),
  };
}

/**
 * Why the clinic is closed on each of `dates` that it is (no hours that weekday, or a closure of
 * the clinic's): one D1 round trip, for ranges (the week strip, the next day it opens).
 */
export async function clinicClosedDays(env: Env, dates: string[]): Promise<Map<string, string>> {
  const closed = new Map<string, string>();
  const [first, last] = [dates[0], dates.at(-1)];
  if (!first || !last) return closed;
  const [hours, closures] = await env.DB.batch([weekHours(env.DB), clinicClosuresBetween(env.DB, first, last)]);
  const open = new Set(((hours?.results ?? []) as HoursRow[]).map((h) => h.weekday));
  const rows = (closures?.results ?? []) as { from_date: string; to_date: string; reason: string }[];
  for (const date of dates) {
    const closure = rows.find((c) => c.from_date <= date && date <= c.to_date);
    if (closure) closed.set(date, closure.reason);
    else if (!open.has(weekdayOf(date))) closed.set(date, `The clinic does not open on ${WEEKDAYS[weekdayOf(date)]}s`);
  }
  return closed;
}

/** The doctor a patient asks for, with their specialty; 404 when there is none. */
export async function askedDoctor(env: Env, id: string): Promise<{ id: string; name: string; specialtyId: string }> {
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  return { id, name: doctor.name, specialtyId: doctor.specialtyId };
}

/** The day as one doctor sees it: only their time counts as free, only their absence as closed. */
export function dayOf(day: Day, doctor: { id: string }): Day {
  return {
    ...day,
    doctors: day.doctors.filter((d) => d.id === doctor.id),
    away: day.away.filter((d) => d.doctorId === doctor.id),
  };
}

/** A treatment of the day by its id or name; 404 when there is none. */
export function treatmentOn(day: Day, treatment: string): TreatmentRow {
  const found = day.treatments.find((t) => t.id === treatment || t.name === treatment);
  if (!found) throw new HttpError(404, `No such treatment: ${treatment}`);
  return found;
}

/** The cells a booking from `start` for `minutes` takes. */
export function cellsOf(start: number, minutes: number): { firstCell: number; lastCell: number } {
  return { firstCell: Math.floor(start / CELL_MINUTES), lastCell: Math.floor((start + minutes - 1) / CELL_MINUTES) };
}

function isFree(day: Day, resource: string, firstCell: number, lastCell: number): boolean {
  const cells = day.taken.get(resource);
  if (!cells) return true;
  for (let cell = firstCell; cell <= lastCell; cell++) if (cells[cell]) return false;
  return true;
}

/** The starts a treatment has on the day's grid (open, not yet filtered by who is free). */
export function gridStarts(day: Day, minutes: number): number[] {
  if (!day.hours) return [];
  const starts: number[] = [];
  for (let start = day.hours.open; start + minutes <= day.hours.close; start += START_STEP_MINUTES) starts.push(start);
  return starts;
}

export interface Pair {
  doctorId: string;
  chairId: string;
}

/**
 * The (doctor, chair) pairs free for the treatment's whole length from `start`, the least loaded
 * first (fewest cells claimed that day, doctor and chair together), so bookings spread over the
 * clinic's doctors and chairs.
 */
export function freePairs(day: Day, treatment: TreatmentRow, start: number): Pair[] {
  const end = start + treatment.duration_minutes;
  const { firstCell, lastCell } = cellsOf(start, treatment.duration_minutes);
  const loadOf = (resource: string) => day.load.get(resource) ?? 0;
  const doctors = day.doctors
    .filter((d) => d.specialty_id === treatment.specialty_id && d.start_minute <= start && end <= d.end_minute)
    .map((d) => doctorResource(d.id))
    .filter((resource) => isFree(day, resource, firstCell, lastCell));
  if (doctors.length === 0) return [];
  const chairs = day.chairs.map(chairResource).filter((resource) => isFree(day, resource, firstCell, lastCell));
  const pairs = doctors.flatMap((doctor) =>
    chairs.map((chair) => ({ doctor, chair, load: loadOf(doctor) + loadOf(chair) })),
  );
  pairs.sort(
    (a, b) =>
      a.load - b.load ||
      loadOf(a.doctor) - loadOf(b.doctor) ||
      (a.doctor < b.doctor ? -1 : a.doctor > b.doctor ? 1 : a.chair < b.chair ? -1 : 1),
  );
  return pairs.map((p) => ({ doctorId: p.doctor.slice('doctor:'.length), chairId: p.chair.slice('chair:'.length) }));
}

/**
 * The starts of a treatment still free on the day from `fromMinute` on (the earlier ones have
 * started, or the date is out of the horizon), leaving out, on a daylight-saving day, any whose
 * wall-clock interval does not exist or does not last its length.
 */
export function freeStarts(env: Env, day: Day, treatment: TreatmentRow, fromMinute: number): number[] {
  return gridStarts(day, treatment.duration_minutes).filter(
    (start) =>
      start >= fromMinute &&
      (day.regular || isWholeInterval(env, day.date, start, start + treatment.duration_minutes)) &&
      freePairs(day, treatment, start).length > 0,
  );
}
