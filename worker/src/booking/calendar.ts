import { clinicInstant, displayDate } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';

/** What an appointment's calendar file says. */
export interface CalendarAppointment {
  bookingId: string;
  treatment: string;
  /** ISO date and minutes after midnight on the clinic's clock. */
  date: string;
  startMinute: number;
  durationMinutes: number;
  slot: string;
  doctor: string | null;
  patientName: string;
}

/** The appointment as an iCalendar file (RFC 5545), with its real start and end in UTC. */
export function calendarFile(env: Env, appointment: CalendarAppointment, clinicName: string, now = new Date()): string {
  const a = appointment;
  const start = clinicInstant(env, a.date, a.startMinute);
  const end = clinicInstant(env, a.date, a.startMinute + a.durationMinutes);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Smile Dental Clinic//Booking portal//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-TIMEZONE:${env.CLINIC_TIME_ZONE}`,
    'BEGIN:VEVENT',
    `UID:${a.bookingId}@dental-clinic`,
    `DTSTAMP:${icsInstant(now)}`,
    `DTSTART:${icsInstant(start)}`,
    `DTEND:${icsInstant(end)}`,
    `SUMMARY:${icsText(`${a.treatment} at ${clinicName}`)}`,
    `DESCRIPTION:${icsText(`${a.treatment}, ${displayDate(a.date)}, ${a.slot} (${env.CLINIC_TIME_ZONE})${a.doctor ? ` with ${a.doctor}` : ''}. Patient: ${a.patientName}.`)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

function icsInstant(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function icsText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}
