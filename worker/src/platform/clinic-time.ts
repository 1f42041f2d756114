import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { DATE_YEARS, isCalendarDate } from '../../../contract/fields.ts';
import { clock } from './clock.ts';
import type { Env } from './env.ts';
import { HttpError } from './http.ts';

/** The product's display format for dates (docs/product-reference.md#limits-and-constants) (date-fns `PP`, e.g. "Nov 21, 2026"). */
export const DISPLAY_DATE = 'PP';
const ISO_DATE = 'yyyy-MM-dd';

/** "Now" on the clinic's wall clock: its calendar date and minutes since midnight. */
export function clinicNow(env: Env, now = clock()): { date: string; minute: number } {
  const local = new TZDate(now, env.CLINIC_TIME_ZONE);
  return { date: format(local, ISO_DATE), minute: local.getHours() * 60 + local.getMinutes() };
}

/** Accepts "Nov 21, 2026" (PP) or "2026-11-21" of a year in DATE_YEARS; answers the ISO date, or a 400. */
export function parseClinicDate(input: string | null, field = 'date'): string {
  const text = (input ?? '').trim();
  for (const pattern of [ISO_DATE, DISPLAY_DATE]) {
    const date = parse(text, pattern, new Date(2000, 0, 1));
    // Round-tripping refuses lenient matches such as "2026-02-31" or "Nov 21, 26".
    if (!isValid(date) || format(date, pattern) !== text) continue;
    const iso = format(date, ISO_DATE);
    if (isCalendarDate(iso)) return iso;
    throw new HttpError(400, `${field} must be a date from ${DATE_YEARS.first} to ${DATE_YEARS.last}`);
  }
  throw new HttpError(400, `${field} must look like "Nov 21, 2026" or "2026-11-21"`);
}

export function displayDate(isoDate: string): string {
  // What date-fns writes for `PP` in English, without parsing and formatting a date for each booking listed.
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** How many days ahead a patient may book (BOOKING_HORIZON_DAYS; 60 when unset or not a number). */
export function horizonDays(env: Env): number {
  const days = Number.parseInt(env.BOOKING_HORIZON_DAYS, 10);
  return Number.isFinite(days) && days >= 0 ? days : 60;
}

/**
 * The earliest slot start (minutes after midnight) still bookable on `isoDate`: 0 on a future
 * date inside the horizon, the next minute on today, and past the end of day otherwise.
 */
export function firstBookableMinute(env: Env, isoDate: string, now = clock()): number {
  const today = clinicNow(env, now);
  const lastDay = format(addDays(parse(today.date, ISO_DATE, new Date(2000, 0, 1)), horizonDays(env)), ISO_DATE);
  if (isoDate < today.date || isoDate > lastDay) return 24 * 60;
  return isoDate === today.date ? today.minute + 1 : 0;
}

/** Why a date cannot be booked, or null when it can. */
export function bookingWindowProblem(env: Env, isoDate: string, now = clock()): string | null {
  const today = clinicNow(env, now).date;
  if (isoDate < today) return 'This date has passed';
  if (firstBookableMinute(env, isoDate, now) >= 24 * 60) {
    return `Appointments can be booked up to ${horizonDays(env)} days ahead`;
  }
  return null;
}

/** The UTC instant of a wall-clock time on a clinic date (right across daylight-saving changes). */
export function clinicInstant(env: Env, isoDate: string, minute: number): Date {
  // A day the clock runs straight through (all but two a year): its midnight and the minutes since.
  if (minute >= 0 && minute < 24 * 60 && runsStraight(env, isoDate)) {
    return new Date(clinicMidnight(env, isoDate).getTime() + minute * 60_000);
  }
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(
    new TZDate(year, month - 1, day, Math.floor(minute / 60), minute % 60, env.CLINIC_TIME_ZONE).getTime(),
  );
}

/** The weekday of a clinic date: 0 Sunday … 6 Saturday. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T12:00:00Z`).getUTCDay();
}

/**
 * Whether the clinic's clock runs straight through `isoDate` (no daylight-saving change that day):
 * then every wall-clock interval of the day lasts what it says.
 */
export function isRegularDay(env: Env, isoDate: string): boolean {
  return (
    clinicInstant(env, isoDate, 24 * 60 - 1).getTime() - clinicInstant(env, isoDate, 0).getTime() ===
    (24 * 60 - 1) * 60_000
  );
}

/**
 * Whether the wall-clock interval from `start` to `end` (minutes after midnight) on `isoDate`
 * exists and lasts exactly its length: false when either end falls in the hour skipped when the
 * clocks go forward, or the interval spans the hour repeated when they go back.
 */
export function isWholeInterval(env: Env, isoDate: string, start: number, end: number): boolean {
  const exists = (minute: number) => {
    const wall = clinicNow(env, clinicInstant(env, isoDate, minute));
    return wall.date === isoDate && wall.minute === minute;
  };
  const length = clinicInstant(env, isoDate, end).getTime() - clinicInstant(env, isoDate, start).getTime();
  return exists(start) && (end >= 24 * 60 || exists(end)) && length === (end - start) * 60_000;
}

/** The clinic's offset from UTC at an instant, in minutes east of UTC (New York in winter: -300). */
function offsetAt(env: Env, ms: number): number {
  return -new TZDate(ms, env.CLINIC_TIME_ZONE).getTimezoneOffset();
}

/**
 * Remembers a pure function's answers by key, the oldest forgotten beyond `size`: a time zone's rules do not
 * change while an isolate lives, and an owner's insights ask for the same days and years again and again.
 */
function remembered<T>(size: number): (key: string, make: () => T) => T {
  const kept = new Map<string, T>();
  return (key, make) => {
    const known = kept.get(key);
    if (known !== undefined) return known;
    const made = make();
    if (kept.size >= size) kept.delete(kept.keys().next().value ?? '');
    kept.set(key, made);
    return made;
  };
}

const midnights = remembered<number>(4096);

/**
 * The first instant of a clinic date: its midnight on the clinic's clock (as clinicInstant(date, 0),
 * from two offset look-ups instead of a calendar's arithmetic, and remembered: cheap for a year of days).
 */
export function clinicMidnight(env: Env, isoDate: string): Date {
  const ms = midnights(`${env.CLINIC_TIME_ZONE} ${isoDate}`, () => {
    const utc = Date.parse(`${isoDate}T00:00:00Z`);
    const guess = utc - offsetAt(env, utc) * 60_000;
    return utc - offsetAt(env, guess) * 60_000;
  });
  return new Date(ms);
}

const straightDays = remembered<boolean>(4096);

/**
 * Whether a clinic date runs straight (remembered): its midnight is on the clock (not skipped, as where the
 * clocks go forward at midnight) and the next day's comes 24 hours later, so no clock change falls between.
 */
function runsStraight(env: Env, isoDate: string): boolean {
  return straightDays(`${env.CLINIC_TIME_ZONE} ${isoDate}`, () => {
    const utcMidnight = Date.parse(`${isoDate}T00:00:00Z`);
    const midnight = clinicMidnight(env, isoDate).getTime();
    const next = new Date(utcMidnight + 86_400_000).toISOString().slice(0, 10);
    return (
      midnight + offsetAt(env, midnight) * 60_000 === utcMidnight &&
      clinicMidnight(env, next).getTime() - midnight === 86_400_000
    );
  });
}

const yearsOfChanges = remembered<[number, number][]>(64);

/**
 * The instants of a UTC calendar year at which the clinic's offset changes, each with the offset after it
 * (remembered per time zone and year: finding them takes about a hundred offset look-ups).
 */
function changesIn(env: Env, year: number): [number, number][] {
  return yearsOfChanges(`${env.CLINIC_TIME_ZONE} ${year}`, () => {
    const changes: [number, number][] = [];
    const WEEK = 7 * 86_400_000;
    const MINUTE = 60_000;
    const end = Date.UTC(year + 1, 0, 1);
    // No time zone changes its offset twice in a week: look weekly, then find the minute it changed.
    for (let at = Date.UTC(year, 0, 1); at < end; at += WEEK) {
      let low = at;
      let high = Math.min(at + WEEK, end);
      if (offsetAt(env, high) === offsetAt(env, low)) continue;
      while (high - low > MINUTE) {
        const middle = low + Math.max(1, Math.floor((high - low) / 2 / MINUTE)) * MINUTE;
        if (offsetAt(env, middle) === offsetAt(env, low)) low = middle;
        else high = middle;
      }
      changes.push([high, offsetAt(env, high)]);
    }
    return changes;
  });
}

/**
 * The clinic's offsets from UTC between two instants, as SQLite date modifiers: [[from instant
 * (ISO, UTC), "-300 minutes"], …] ascending, the first from "" (any earlier instant). SQLite has no
 * time zones; `date(created_at, shift)` then names the clinic's date of a stored instant.
 */
export function utcShifts(env: Env, from: Date, to: Date): [string, string][] {
  const modifier = (minutes: number) => `${minutes >= 0 ? '+' : ''}${minutes} minutes`;
  const shifts: [string, string][] = [['', modifier(offsetAt(env, from.getTime()))]];
  for (let year = from.getUTCFullYear(); year <= to.getUTCFullYear(); year++) {
    for (const [at, offset] of changesIn(env, year)) {
      if (at > from.getTime() && at <= to.getTime()) shifts.push([new Date(at).toISOString(), modifier(offset)]);
    }
  }
  return shifts;
}
