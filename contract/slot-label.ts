/**
 * How the API labels a time: "10.00 AM - 11.30 AM", its start and end on the clinic's wall clock
 * (`start` and `minutes` in minutes). GET /api/appointmentOptions answers its free starts in this
 * form and POST /api/bookings takes one back as `slot`.
 */
export function slotLabel(start: number, minutes: number): string {
  const clock = (minute: number) => {
    const hours24 = Math.floor(minute / 60) % 24;
    const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(hours12)}.${pad(minute % 60)} ${hours24 < 12 ? 'AM' : 'PM'}`;
  };
  return `${clock(start)} - ${clock(start + minutes)}`;
}

/** A start on the clinic's wall clock as the API writes it beside its label: "10:00", "14:30" (24-hour). */
export function startText(start: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(start / 60) % 24)}:${pad(start % 60)}`;
}

const START = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The minute of the day a start ("10:00") names, or null when it is none. */
export function startMinuteOf(text: string): number | null {
  const match = START.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
