import type { Specialty } from '../../../../contract/appointments.ts';

/** The specialties in the clinic's order. */
export async function allSpecialties(db: D1Database): Promise<Specialty[]> {
  const { results } = await db
    .prepare('SELECT id, name FROM specialties ORDER BY position, name')
    .all<{ id: string; name: string }>();
  return results.map((row) => ({ _id: row.id, name: row.name }));
}

/** The id of the specialty with this name (any case), or null. */
export function specialtyIdByName(db: D1Database, name: string): Promise<string | null> {
  return db.prepare('SELECT id FROM specialties WHERE name = ?1').bind(name).first<string>('id');
}
