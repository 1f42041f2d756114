import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { startOfWeek } from 'date-fns/startOfWeek';
import { isoDay } from '../../lib/clinic-calendar.ts';
import type { InsightsAnswer, InsightsDay } from './api/get-insights.ts';

/**
 * What the insights page draws, derived from the answer (docs/product-admin.md#insights): each chart's
 * rows, which are also its table and its CSV.
 */

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Monday first, as a clinic's week is read. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** A share as a whole percentage ("85%"), or "–" when nothing was open. */
export const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–');
export const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
export const dollars = (amount: number) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export type HeatCell = { weekday: number; hour: number; bookedMinutes: number; openMinutes: number };

/** The chairs' utilisation by weekday (Monday first) and hour, only the hours the clinic opens. */
export function heatMap(answer: InsightsAnswer): { hours: number[]; cells: HeatCell[] } {
  const hours = [...new Set(answer.hours.filter((h) => h.openMinutes > 0).map((h) => h.hour))].sort((a, b) => a - b);
  const byKey = new Map(answer.hours.map((h) => [`${h.weekday} ${h.hour}`, h]));
  const cells = WEEK_ORDER.flatMap((weekday) =>
    hours.map((hour) => ({ weekday, hour, bookedMinutes: 0, openMinutes: 0, ...byKey.get(`${weekday} ${hour}`) })),
  );
  return { hours, cells };
}

export type Week = {
  /** The Monday it starts on (ISO). */
  start: string;
  visits: number;
  attended: number;
  noShows: number;
  cancelled: number;
  moved: number;
  revenue: number;
  refunded: number;
};

/** The days summed by week (Monday to Sunday, on the clinic's calendar). */
export function weeks(days: readonly InsightsDay[]): Week[] {
  const byStart = new Map<string, Week>();
  for (const day of days) {
    const start = isoDay(startOfWeek(parseISO(day.date), { weekStartsOn: 1 }));
    const week = byStart.get(start) ?? {
      start,
      visits: 0,
      attended: 0,
      noShows: 0,
      cancelled: 0,
      moved: 0,
      revenue: 0,
      refunded: 0,
    };
    byStart.set(start, week);
    week.visits += day.visits;
    week.attended += day.attended;
    week.noShows += day.noShows;
    week.cancelled += day.cancelled;
    week.moved += day.moved;
    week.revenue = Math.round((week.revenue + day.revenue) * 100) / 100;
    week.refunded = Math.round((week.refunded + day.refunded) * 100) / 100;
  }
  return [...byStart.values()];
}

export const weekText = (start: string) => `Week of ${format(parseISO(start), 'MMM d, yyyy')}`;
