import * as v from 'valibot';

/** Control characters (C0, DEL, C1) and Unicode line separators: never in a one-line field. */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;
/** In multi-line text, newlines and tabs are fine; any other control character is not. */
const CONTROL_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

/**
 * Refuses line breaks and control characters in a one-line field, so no field can smuggle a line
 * into a mail header, a log line or a CSV cell. For text read outside `text()` and `email()`.
 */
export function singleLine(field: string) {
  return v.check(
    (value: string) => !CONTROL_CHARACTERS.test(value),
    `${field} must be one line of text, without line breaks or control characters`,
  );
}

/** A required, trimmed one-line text field with a length limit and messages that name the field. */
export function text(field: string, max: number) {
  return v.pipe(
    v.string(`${field} is required and must be text`),
    singleLine(field),
    v.trim(),
    v.minLength(1, `${field} is required`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
  );
}

/** Refuses control characters other than newlines and tabs (text of several lines). */
export function noControlCharacters(field: string) {
  return v.check(
    (value: string) => !CONTROL_BUT_LINE_BREAKS.test(value),
    `${field} must not contain control characters`,
  );
}

/** Like `text()`, for fields of several lines (a message, a review): newlines and tabs are allowed. */
export function multilineText(field: string, max: number) {
  return v.pipe(
    v.string(`${field} is required and must be text`),
    noControlCharacters(field),
    v.trim(),
    v.minLength(1, `${field} is required`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
  );
}

/** A required email address, trimmed and lower-cased. */
export function email(field: string) {
  return v.pipe(
    v.string(`${field} is required and must be text`),
    singleLine(field),
    v.trim(),
    v.minLength(1, `${field} is required`),
    v.maxLength(254, `${field} must be at most 254 characters`),
    v.email(`${field} must be a valid email address`),
    v.toLowerCase(),
  );
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The years a visit, a range or a due date may name: a mistyped year ("9999", "0202") is refused
 * with a 400, never computed with. A date of birth has a range of its own.
 */
export const DATE_YEARS = { first: 2000, last: 2100 } as const;
export const BIRTH_YEARS = { first: 1900, last: DATE_YEARS.last } as const;

/** Whether `value` is a real "yyyy-MM-dd" date (not "2026-02-31") whose year is within `years`. */
export function isCalendarDate(value: string, years: { first: number; last: number } = DATE_YEARS): boolean {
  const year = Number(value.slice(0, 4));
  return isRealDate(value) && year >= years.first && year <= years.last;
}

const isRealDate = (value: string) =>
  ISO_DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A calendar date on the clinic's wall clock, "2026-11-21" (a real date in `years`: not "2026-02-31", not "9999-12-31"). */
export function isoDate(field: string, years: { first: number; last: number } = DATE_YEARS) {
  return v.pipe(
    v.string(`${field} is required and must be a date like "2026-11-21"`),
    v.check(
      (value: string) => isCalendarDate(value, years),
      (issue) =>
        isRealDate(String(issue.input))
          ? `${field} must be a date from ${years.first} to ${years.last}`
          : `${field} must be a date like "2026-11-21"`,
    ),
  );
}

const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** Whole days from one calendar date to another (negative when `to` comes first). */
export const daysBetween = (from: string, to: string): number => Math.round(dayNumber(to) - dayNumber(from));

/** The calendar date `days` after `iso` (before, when negative). */
export const addCalendarDays = (iso: string, days: number): string =>
  new Date((dayNumber(iso) + days) * 86_400_000).toISOString().slice(0, 10);

/**
 * Every date from `from` to `to`, both included, counted rather than compared as text, and never
 * more than `max` of them: a loop over a range cannot run past the limit its route claims.
 */
export function datesBetween(from: string, to: string, max: number): string[] {
  const count = Math.min(daysBetween(from, to) + 1, max);
  return Array.from({ length: Math.max(0, count) }, (_, i) => addCalendarDays(from, i));
}

const CLOCK = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

/** A time of day on the clinic's wall clock, "09:00" to "24:00", on a quarter hour (the schedule's 15-minute cells). */
export function clockTime(field: string) {
  return v.pipe(
    v.string(`${field} is required and must be a time like "09:00"`),
    v.check((value: string) => CLOCK.test(value), `${field} must be a time like "09:00" (24-hour clock)`),
    v.check(
      (value: string) => Number(value.slice(3)) % 15 === 0,
      `${field} must be on a quarter hour (:00, :15, :30 or :45)`,
    ),
  );
}

/** A weekday: 0 Sunday … 6 Saturday. */
export function weekday(field: string) {
  return v.pipe(
    v.number(`${field} must be a weekday number, 0 (Sunday) to 6 (Saturday)`),
    v.integer(`${field} must be a weekday number, 0 (Sunday) to 6 (Saturday)`),
    v.minValue(0, `${field} must be a weekday number, 0 (Sunday) to 6 (Saturday)`),
    v.maxValue(6, `${field} must be a weekday number, 0 (Sunday) to 6 (Saturday)`),
  );
}

/** A whole number of `unit` from `min` to `max`, refused in words that name the field. */
export function wholeNumber(field: string, unit: string, min: number, max: number) {
  const range = `${field} must be ${min} to ${max}`;
  return v.pipe(
    v.number(`${field} must be a number of ${unit}`),
    v.integer(`${field} must be a whole number of ${unit}`),
    v.minValue(min, range),
    v.maxValue(max, range),
  );
}

/** `force: true` keeps the upcoming bookings a change would strand (and reports them); otherwise such a change is refused (409). */
export const force = v.optional(v.boolean('force must be true or false'), false);

/** `?page=` of a list answered a page at a time: 1 (the default) to 9,999. */
export const page = v.optional(
  v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'page must be a whole number from 1 to 9999'), v.transform(Number)),
  '1',
);
