import { AppointmentOptionsQuery } from '../../contract/appointments.ts';
import { firstBookableMinute, parseClinicDate } from './clinic-time.ts';
import { freeSlotsOn, specialties } from './data/treatments.ts';
import type { Env } from './env.ts';
import { json, readQuery } from './http.ts';

/** GET /api/appointmentOptions?date=: every treatment with its free slots and price (past slots of today hidden). */
export async function listAppointmentOptions(request: Request, env: Env): Promise<Response> {
  const isoDate = parseClinicDate(readQuery(request, AppointmentOptionsQuery).date ?? null);
  const now = new Date();
  return json(await freeSlotsOn(env.DB, isoDate, firstBookableMinute(env, isoDate, now), now));
}

/** GET /api/appointmentSpecialty: the treatments' names, for the doctor form. */
export async function listSpecialties(_request: Request, env: Env): Promise<Response> {
  return json(await specialties(env.DB));
}
