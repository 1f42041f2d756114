/**
 * How the API labels a time: "10.00 AM - 11.30 AM", its start and end on the clinic's wall clock
 * (`start` and `minutes` in minutes). GET /api/appointmentOptions answers its free times in this
 * form (`slots`) and, beside each, its start (`starts`: "10:00"), which a booking sends back.
 */
export function slotLabel(start: number, minutes: number): string {
  return `${clockText(start)} - ${clockText(start + minutes)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A minute of the day as a label writes it: "10.00 AM", "02.30 PM". */
function clockText(minute: number): string {
  const hours24 = Math.floor(minute / 60) % 24;
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${pad(hours12)}.${pad(minute % 60)} ${hours24 < 12 ? 'AM' : 'PM'}`;
}

/** A start on the clinic's wall clock as the API writes it beside its label: "10:00", "14:30" (24-hour). */
export function startText(start: number): string {
  return `${pad(Math.floor(start / 60) % 24)}:${pad(start % 60)}`;
}

const START = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The minute of the day a start ("10:00") names, or null when it is none. */
export function startMinuteOf(text: string): number | null {
  const match = START.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** A start ("14:30") as a label writes it: "02.30 PM" (itself when it is no start). */
export function startClockText(start: string): string {
  const minute = startMinuteOf(start);
  return minute === null ? start : clockText(minute);
}

/** The start of a label as a patient reads it: "10.00 AM" of "10.00 AM - 10.30 AM". */
export const labelStartText = (label: string) => label.split(' - ')[0] ?? label;

const LABEL_START = /^(0\d|1[0-2])\.([0-5]\d) (AM|PM)/;

/** The start a label begins at, as the API writes it ("10:00" of "10.00 AM - 10.30 AM"), or null when it is no label. */
export function startOfLabel(label: string): string | null {
  const match = LABEL_START.exec(label);
  if (!match) return null;
  const hours = (Number(match[1]) % 12) + (match[3] === 'PM' ? 12 : 0);
  return startText(hours * 60 + Number(match[2]));
}
