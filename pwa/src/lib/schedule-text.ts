// How the schedule reads on screen (docs/product-admin.md#treatments, #clinic-hours-and-closures, #manage-doctors):
// weekdays, times of day on the clinic's wall clock, lengths. The API numbers weekdays 0 (Sunday) to
// 6 (Saturday) and writes times as "09:00".

/** The weekdays as the clinic lists them, Monday first, each with the API's number. */
export const WEEKDAYS = [
  { day: 1, name: 'Monday', short: 'Mon' },
  { day: 2, name: 'Tuesday', short: 'Tue' },
  { day: 3, name: 'Wednesday', short: 'Wed' },
  { day: 4, name: 'Thursday', short: 'Thu' },
  { day: 5, name: 'Friday', short: 'Fri' },
  { day: 6, name: 'Saturday', short: 'Sat' },
  { day: 0, name: 'Sunday', short: 'Sun' },
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** "00:00", "00:15", … "24:00": the times a day's hours can start or end at (the schedule's 15-minute cells). */
export const QUARTER_HOURS: readonly string[] = Array.from(
  { length: 97 },
  (_, i) => `${pad(Math.floor(i / 4))}:${pad((i % 4) * 15)}`,
);

/** Minutes since midnight of a time like "09:30". */
export const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** A treatment's or a booking's length: "60 min". */
export const lengthText = (minutes: number) => `${minutes} min`;

/** The treatment lengths one can choose: 15 to 180 minutes in 15-minute steps. */
export const TREATMENT_LENGTHS: readonly number[] = Array.from({ length: 12 }, (_, i) => (i + 1) * 15);

/**
 * Working days in a few words: "Every day", a run of three or more as "Mon–Fri", else the days
 * ("Mon, Wed, Fri"); "No days" when there are none.
 */
export function workingDaysText(days: readonly number[]): string {
  const chosen = WEEKDAYS.filter(({ day }) => days.includes(day));
  if (chosen.length === WEEKDAYS.length) return 'Every day';
  if (chosen.length === 0) return 'No days';
  const first = WEEKDAYS.indexOf(chosen[0] as (typeof WEEKDAYS)[number]);
  const consecutive = chosen.every((weekday, i) => WEEKDAYS[first + i] === weekday);
  if (consecutive && chosen.length >= 3) return `${chosen[0]?.short}–${chosen.at(-1)?.short}`;
  return chosen.map((weekday) => weekday.short).join(', ');
}

/**
 * A doctor's week in a few words: the days with the same hours together, e.g. "Mon–Fri 09:00–17:00"
 * or "Mon 09:00–13:00; Wed 12:00–18:00"; "No days" when they work none.
 */
export function weeklyHoursText(week: readonly { weekday: number; start: string; end: string }[]): string {
  const groups = new Map<string, number[]>();
  for (const { day } of WEEKDAYS) {
    const hours = week.find((h) => h.weekday === day);
    if (!hours) continue;
    const key = `${hours.start}–${hours.end}`;
    groups.set(key, [...(groups.get(key) ?? []), day]);
  }
  if (groups.size === 0) return 'No days';
  return [...groups].map(([hours, days]) => `${workingDaysText(days)} ${hours}`).join('; ');
}
