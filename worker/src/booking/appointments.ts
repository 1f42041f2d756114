import { type AppointmentOption, AppointmentOptionsQuery } from '../../../contract/appointments.ts';
import { slotLabel } from '../../../contract/slot-label.ts';
import { allSpecialties } from '../clinic/data/specialties.ts';
import { firstBookableMinute, parseClinicDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json, readQuery } from '../platform/http.ts';
import { freeStarts, readDay } from './schedule.ts';

/**
 * GET /api/appointmentOptions?date=: every treatment offered, with its free starts that day (those
 * of today that have started hidden), its price and length. One D1 round trip.
 */
export async function listAppointmentOptions(request: Request, env: Env): Promise<Response> {
  const isoDate = parseClinicDate(readQuery(request, AppointmentOptionsQuery).date ?? null);
  const now = clock();
  const day = await readDay(env, isoDate, now);
  const from = firstBookableMinute(env, isoDate, now);
  return json(
    day.treatments
      .filter((t) => t.active === 1)
      .map(
        (t): AppointmentOption => ({
          _id: t.id,
          name: t.name,
          slots: freeStarts(env, day, t, from).map((start) => slotLabel(start, t.duration_minutes)),
          price: t.price_cents / 100,
          durationMinutes: t.duration_minutes,
        }),
      ),
  );
}

/** GET /api/appointmentSpecialty: the specialties, for the doctor and treatment forms. */
export async function listSpecialties(_request: Request, env: Env): Promise<Response> {
  return json(await allSpecialties(env.DB));
}
