import { AppointmentOptionsQuery, type AppointmentOption, type Specialty } from '../../contract/appointments.ts';
import { firstBookableMinute, parseClinicDate } from './clinic-time.ts';
import type { Env } from './env.ts';
import { liveBooking } from './holds.ts';
import { json, readQuery } from './http.ts';

interface OptionRow {
  id: string;
  name: string;
  price_cents: number;
  slot: string | null;
}

/**
 * The still-free slots of every treatment on a date, in one query: a slot is free when no
 * active booking holds it (the NOT EXISTS probes the bookings_one_per_slot index, which finds at
 * most one row), or when that booking is unpaid and its hold has ended.
 */
export async function freeSlotsOn(env: Env, isoDate: string): Promise<AppointmentOption[]> {
  const now = new Date();
  const { results } = await env.DB.prepare(
    `SELECT t.id, t.name, t.price_cents, s.slot
     FROM treatments t
     LEFT JOIN treatment_slots s
       ON s.treatment_id = t.id
      AND s.start_minute >= ?2
      AND NOT EXISTS (
        SELECT 1 FROM bookings b
        WHERE b.treatment_id = s.treatment_id AND b.appointment_date = ?1 AND b.slot = s.slot AND b.status = 'active'
          AND ${liveBooking('b', '?3')})
     ORDER BY t.position, t.name, s.start_minute`,
  )
    .bind(isoDate, firstBookableMinute(env, isoDate, now), now.toISOString())
    .all<OptionRow>();
  const options = new Map<string, AppointmentOption>();
  for (const row of results) {
    let option = options.get(row.id);
    if (!option) {
      option = { _id: row.id, name: row.name, slots: [], price: row.price_cents / 100 };
      options.set(row.id, option);
    }
    if (row.slot) option.slots.push(row.slot);
  }
  return [...options.values()];
}

/** GET /api/appointmentOptions?date=: every treatment with its free slots and price. */
export async function listAppointmentOptions(request: Request, env: Env): Promise<Response> {
  const isoDate = parseClinicDate(readQuery(request, AppointmentOptionsQuery).date ?? null);
  return json(await freeSlotsOn(env, isoDate));
}

/** GET /api/appointmentSpecialty: the treatments' names, for the doctor form. */
export async function listSpecialties(_request: Request, env: Env): Promise<Response> {
  const { results } = await env.DB.prepare('SELECT id, name FROM treatments ORDER BY position, name').all<{
    id: string;
    name: string;
  }>();
  return json(results.map((t): Specialty => ({ _id: t.id, name: t.name })));
}
