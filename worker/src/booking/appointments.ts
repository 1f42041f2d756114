import type { AppointmentOption } from '../../../contract/appointments.ts';
import { addCalendarDays, datesBetween } from '../../../contract/fields.ts';
import { slotLabel, startText } from '../../../contract/slot-label.ts';
import { allSpecialties } from '../clinic/data/specialties.ts';
import { bookingWindowProblem, firstBookableMinute, parseClinicDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { depositOf } from './holds.ts';
import { askedDoctor, clinicClosedDays, closedFor, dayOf, freeStarts, readDay } from './schedule.ts';

/**
 * GET /api/appointmentOptions?date=&doctorId=: every treatment offered (with `doctorId`, those that
 * doctor performs), with its free starts that day (those of today that have started hidden; with
 * `doctorId`, that doctor's), its price and length, and why it is closed, if it is. One D1 round trip
 * (two on a day the clinic is closed, to find the next one it opens).
 */
export async function listAppointmentOptions(request: Request, env: Env): Promise<Response> {
  const query = inputOf(request, 'GET /appointmentOptions').query;
  const isoDate = parseClinicDate(query.date ?? null);
  const now = clock();
  const [whole, doctor] = await Promise.all([
    readDay(env, isoDate, now),
    query.doctorId === undefined ? null : askedDoctor(env, query.doctorId),
  ]);
  const day = doctor ? dayOf(whole, doctor) : whole;
  const from = firstBookableMinute(env, isoDate, now);
  const nextOpen = day.closed ? await nextOpenDate(env, isoDate, now) : null;
  return json(
    day.treatments
      .filter((t) => t.active === 1 && (!doctor || t.specialty_id === doctor.specialtyId))
      .map((t): AppointmentOption => {
        const reason = closedFor(day, t);
        const free = freeStarts(env, day, t, from);
        return {
          _id: t.id,
          name: t.name,
          slots: free.map((start) => slotLabel(start, t.duration_minutes)),
          starts: free.map(startText),
          price: t.price_cents / 100,
          durationMinutes: t.duration_minutes,
          specialtyId: t.specialty_id,
          payment: t.price_cents > 0 ? t.payment : 'clinic',
          deposit: t.payment === 'deposit' && t.price_cents > 0 ? depositOf(t) / 100 : null,
          closed: reason ? { reason, nextOpenDate: day.closed ? nextOpen : null } : null,
        };
      }),
  );
}

/** The first day after `isoDate`, within the booking horizon, that the clinic opens (hours that weekday, no closure). */
async function nextOpenDate(env: Env, isoDate: string, now: Date): Promise<string | null> {
  const days = datesBetween(addCalendarDays(isoDate, 1), addCalendarDays(isoDate, 366), 366).filter(
    (date) => !bookingWindowProblem(env, date, now),
  );
  const closed = await clinicClosedDays(env, days);
  return days.find((date) => !closed.has(date)) ?? null;
}

/** GET /api/appointmentSpecialty: the specialties, for the doctor and treatment forms. */
export async function listSpecialties(_request: Request, env: Env): Promise<Response> {
  return json(await allSpecialties(env.DB));
}
