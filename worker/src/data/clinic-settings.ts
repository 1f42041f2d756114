import type { ClinicSettings } from '../../../contract/clinic.ts';

/** The clinic's settings (its one row; migration 0007 inserts it). */
export async function clinicSettings(db: D1Database): Promise<ClinicSettings> {
  const row = await db
    .prepare('SELECT reschedule_cutoff_hours FROM clinic_settings WHERE id = 1')
    .first<{ reschedule_cutoff_hours: number }>();
  return { rescheduleCutoffHours: row?.reschedule_cutoff_hours ?? 24 };
}

/** Sets the clinic's settings (the row exists from migration 0007; the upsert keeps it so regardless). */
export function saveClinicSettings(db: D1Database, settings: ClinicSettings): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO clinic_settings (id, reschedule_cutoff_hours) VALUES (1, ?1)
       ON CONFLICT (id) DO UPDATE SET reschedule_cutoff_hours = excluded.reschedule_cutoff_hours`,
    )
    .bind(settings.rescheduleCutoffHours);
}
