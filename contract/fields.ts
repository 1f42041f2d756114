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

/** Like `text()`, for fields of several lines (a message, a review): newlines and tabs are allowed. */
export function multilineText(field: string, max: number) {
  return v.pipe(
    v.string(`${field} is required and must be text`),
    v.check((value: string) => !CONTROL_BUT_LINE_BREAKS.test(value), `${field} must not contain control characters`),
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
