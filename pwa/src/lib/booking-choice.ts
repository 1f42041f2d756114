import { startOfLabel } from '../../../contract/slot-label.ts';

/**
 * A chosen free time (treatment, day, time and perhaps doctor) as the address of the booking page that
 * opens its dialog: `/appointment?date=yyyy-MM-dd&treatment=<id>&start=10:00[&doctor=<id>]`. The address
 * is the choice's only keeper, so it survives sign-in, sign-up, Google and the verification mail (their
 * `from`) without anything held or stored before the patient is signed in.
 */
export interface BookingChoice {
  /** yyyy-MM-dd. */
  date: string;
  /** The treatment's id. */
  treatment: string;
  /** "10:00", as GET /api/appointmentOptions lists it in `starts`; null: the first free one. */
  start: string | null;
  /** The doctor asked for; null: any doctor. */
  doctor: string | null;
}

export function bookingPath(choice: BookingChoice): string {
  const query = new URLSearchParams({ date: choice.date, treatment: choice.treatment });
  if (choice.start) query.set('start', choice.start);
  if (choice.doctor) query.set('doctor', choice.doctor);
  return `/appointment?${query}`;
}

/**
 * The choice a booking page's address names (its `?` part), or null when it names none. A link made before
 * times had starts names the time by its label (`slot=10.00 AM - 10.30 AM`): its start is read from it.
 */
export function choiceOf(search: string): BookingChoice | null {
  const query = new URLSearchParams(search);
  const date = query.get('date');
  const treatment = query.get('treatment');
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !treatment) return null;
  const label = query.get('slot');
  const start = query.get('start') ?? (label === null ? null : startOfLabel(label));
  return { date, treatment, start, doctor: query.get('doctor') };
}

/** The choice a sign-in page's `from` carries (a booking page's address), or null. */
export function choiceFrom(from: string | null): BookingChoice | null {
  if (!from?.startsWith('/appointment?')) return null;
  return choiceOf(from.slice('/appointment'.length));
}
