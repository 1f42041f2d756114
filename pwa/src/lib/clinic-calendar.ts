import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { CLINIC_TIME_ZONE } from './clinic-time-zone.ts';
import { pageClinic } from './page-clinic.ts';

/** The seed clinic's horizon (wrangler.toml's BOOKING_HORIZON_DAYS), where the page says none. */
const DEFAULT_HORIZON_DAYS = 60;

const validDays = (days: unknown): number | null =>
  typeof days === 'number' && Number.isSafeInteger(days) && days >= 0 ? days : null;

/** How many days after today (in the clinic) one may book: the Worker's own, which every page it serves carries. */
export const BOOKING_HORIZON_DAYS = validDays(pageClinic()?.bookingHorizonDays) ?? DEFAULT_HORIZON_DAYS;

/**
 * Today's date on the clinic's wall clock, as a local-midnight Date (a calendar day, the way the
 * calendar and date-fns `format` see days), whatever the browser's own time zone.
 */
export function clinicToday(now: Date = new Date()): Date {
  const there = new TZDate(now.getTime(), CLINIC_TIME_ZONE);
  return new Date(there.getFullYear(), there.getMonth(), there.getDate());
}

/** The last day that can be booked, counted from the clinic's today. */
export function lastBookableDay(today: Date): Date {
  return addDays(today, BOOKING_HORIZON_DAYS);
}

/** A calendar day as the API names days: "2026-12-03". */
export const isoDay = (day: Date) => format(day, 'yyyy-MM-dd');

/** The instant a start ("09:30", as GET /api/appointmentOptions lists it) of the calendar day `day` is, on the clinic's clock. */
export function startInstant(day: Date, start: string): Date {
  const [hours = 0, minutes = 0] = start.split(':').map(Number);
  return new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes, CLINIC_TIME_ZONE);
}

/** A "yyyy-MM-dd" day as the calendar holds days: that date at local midnight. */
export const localDay = (iso: string) => {
  const [year = 0, month = 1, day = 1] = iso.split('-').map(Number);
  return new Date(year, month - 1, day);
};

/** The bookable day a link names (`?date=yyyy-mm-dd`), or null (none, malformed, past or beyond the horizon). */
export function linkedDay(search: string, now: Date = new Date()): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(new URLSearchParams(search).get('date') ?? '');
  if (!match) return null;
  const day = localDay(match[0]);
  const today = clinicToday(now);
  if (isoDay(day) !== match[0] || day < today || day > lastBookableDay(today)) return null;
  return day;
}
