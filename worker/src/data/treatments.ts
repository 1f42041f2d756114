import type { AppointmentOption, Specialty } from '../../../contract/appointments.ts';
import { liveBooking } from './bookings.ts';

export interface TreatmentRow {
  id: string;
  name: string;
  price_cents: number;
}

/** A treatment by its id or its name (the booking form sends either). */
export function treatmentByIdOrName(db: D1Database, idOrName: string): Promise<TreatmentRow | null> {
  return db
    .prepare('SELECT id, name, price_cents FROM treatments WHERE id = ?1 OR name = ?1')
    .bind(idOrName)
    .first<TreatmentRow>();
}

/** Whether a treatment has this very name (a doctor's specialty must be one). */
export async function isTreatmentName(db: D1Database, name: string): Promise<boolean> {
  return (await db.prepare('SELECT name FROM treatments WHERE name = ?1').bind(name).first()) !== null;
}

/** When a treatment's slot starts, in minutes after midnight on the clinic's clock; null when it has no such slot. */
export function slotStartMinute(db: D1Database, treatmentId: string, slot: string): Promise<number | null> {
  return db
    .prepare('SELECT start_minute FROM treatment_slots WHERE treatment_id = ?1 AND slot = ?2')
    .bind(treatmentId, slot)
    .first<number>('start_minute');
}

/** The treatments' names, which are a doctor's possible specialties. */
export async function specialties(db: D1Database): Promise<Specialty[]> {
  const { results } = await db
    .prepare('SELECT id, name FROM treatments ORDER BY position, name')
    .all<{ id: string; name: string }>();
  return results.map((row) => ({ _id: row.id, name: row.name }));
}

interface OptionRow extends TreatmentRow {
  slot: string | null;
}

/**
 * Every treatment with its slots still free on `isoDate` from `fromMinute` on, in one query: a slot
 * is free when no active booking holds it (the NOT EXISTS probes the bookings_one_per_slot index,
 * which finds at most one row), or when that booking is unpaid and its hold ended by `now`.
 */
export async function freeSlotsOn(
  db: D1Database,
  isoDate: string,
  fromMinute: number,
  now: Date,
): Promise<AppointmentOption[]> {
  const { results } = await db
    .prepare(
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
    .bind(isoDate, fromMinute, now.toISOString())
    .all<OptionRow>();
  const options = new Map<string, AppointmentOption>();
  for (const row of results) {
    let option = options.get(row.id);
    if (!option) {
      option = { _id: row.id, name: row.name, slots: [], price: row.price_cents / 100, durationMinutes: 30 };
      options.set(row.id, option);
    }
    if (row.slot) option.slots.push(row.slot);
  }
  return [...options.values()];
}
