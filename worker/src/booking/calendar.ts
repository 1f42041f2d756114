import { clinicInstant, displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { type Words, wordsFor } from '../platform/words.ts';
import type { CalendarColumns } from './data/bookings.ts';

/** What an appointment's calendar event says. */
export interface CalendarAppointment {
  /** The appointment's UID for its whole life: the first booking's id, kept across reschedules. */
  uid: string;
  /** Rises on every change (the booking's version): a calendar replaces an event with a lower one. */
  sequence: number;
  treatment: string;
  /** ISO date and minutes after midnight on the clinic's clock. */
  date: string;
  startMinute: number;
  durationMinutes: number;
  slot: string;
  doctor: string | null;
  patientName: string;
  /** STATUS:CANCELLED when the appointment no longer takes place. */
  cancelled?: boolean;
}

/** A booking row's columns that its calendar event shows. */

/** A booking row as its calendar event (the mails' files and the feeds alike). */
export const calendarAppointment = (row: CalendarColumns, cancelled = false): CalendarAppointment => ({
  uid: row.calendar_uid,
  sequence: row.version,
  treatment: row.treatment,
  date: row.appointment_date,
  startMinute: row.start_minute,
  durationMinutes: row.duration_minutes,
  slot: row.slot,
  doctor: row.doctor_name,
  patientName: row.patient_name,
  cancelled,
});

export interface CalendarClinic {
  name: string;
  address: string;
}

/** An event's UID as every calendar file and feed writes it (RFC 5545 wants it globally unique). */
export const eventUid = (uid: string) => `${uid}@dental-clinic`;

/** The VEVENT of an appointment (RFC 5545), its start and end in UTC. */
export function calendarEvent(
  env: Env,
  a: CalendarAppointment,
  clinic: CalendarClinic,
  now: Date,
  {
    withPatient = true,
    organizer,
    words: w = wordsFor(env, 'en'),
  }: { withPatient?: boolean; organizer?: string; words?: Words } = {},
): string[] {
  const start = clinicInstant(env, a.date, a.startMinute);
  const end = clinicInstant(env, a.date, a.startMinute + a.durationMinutes);
  // In English the spec's slot label ("10.00 AM - 11.30 AM"); in another language its own times.
  const when = {
    treatment: a.treatment,
    date: w.language === 'en' ? displayDate(a.date) : w.day(a.date),
    time: w.language === 'en' ? a.slot : `${w.time(start)} - ${w.time(end)}`,
    zone: env.CLINIC_TIME_ZONE,
  };
  const details = a.doctor ? w.t('ics.descriptionDoctor', { ...when, doctor: a.doctor }) : w.t('ics.description', when);
  const language = w.language === 'en' ? '' : `;LANGUAGE=${w.language}`;
  return [
    'BEGIN:VEVENT',
    `UID:${eventUid(a.uid)}`,
    `SEQUENCE:${a.sequence}`,
    `DTSTAMP:${icsInstant(now)}`,
    `DTSTART:${icsInstant(start)}`,
    `DTEND:${icsInstant(end)}`,
    `SUMMARY${language}:${icsText(w.t(withPatient ? 'ics.summary' : 'ics.summaryPrivate', { treatment: a.treatment, clinic: clinic.name }))}`,
    `LOCATION:${icsText(`${clinic.name}, ${clinic.address}`)}`,
    ...(withPatient
      ? [`DESCRIPTION${language}:${icsText(`${details} ${w.t('ics.patient', { patient: a.patientName })}`)}`]
      : []),
    `STATUS:${a.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    ...(organizer ? [`ORGANIZER;CN=${icsParam(clinic.name)}:mailto:${organizer}`] : []),
    'END:VEVENT',
  ];
}

/** A calendar file (RFC 5545) around events: PUBLISH adds or updates them, CANCEL removes them (RFC 5546). */
export function calendarOf(env: Env, events: string[][], method: 'PUBLISH' | 'CANCEL' = 'PUBLISH', name?: string) {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Smile Dental Clinic//Booking portal//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...(name ? [`X-WR-CALNAME:${icsText(name)}`] : []),
    `X-WR-TIMEZONE:${env.CLINIC_TIME_ZONE}`,
    ...events.flat(),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** One appointment as a calendar file: added or updated (PUBLISH), or taken out of the calendar (CANCEL). */
export function calendarFile(
  env: Env,
  appointment: CalendarAppointment,
  clinic: CalendarClinic,
  {
    now = clock(),
    method = 'PUBLISH',
    organizer,
    words,
  }: { now?: Date; method?: 'PUBLISH' | 'CANCEL'; organizer?: string; words?: Words } = {},
): string {
  const cancelled = method === 'CANCEL' || appointment.cancelled;
  return calendarOf(
    env,
    [calendarEvent(env, { ...appointment, cancelled }, clinic, now, { organizer, words })],
    method,
  );
}

function icsInstant(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** TEXT as RFC 5545 escapes it: backslash, semicolon and comma escaped; every line break (CRLF, LF or a lone CR) as \n. */
export function icsText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value: quoted, without the characters a quoted value cannot hold. */
function icsParam(value: string): string {
  return `"${value.replace(/["\r\n]/g, '')}"`;
}

/** Folds a content line longer than 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const bytes = new TextEncoder();
  if (bytes.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const width = bytes.encode(char).length;
    if (size + width > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += width;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
