import type { Specialty } from '../../../../contract/appointments.ts';
import type { SpecialtyInUse } from '../../../../contract/clinic.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

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

/** One specialty per name, without case (specialties.name UNIQUE COLLATE NOCASE). */
export const SPECIALTY_NAME: UniqueConstraint = { table: 'specialties', columns: ['name'] };

/** Every specialty in the clinic's order, with how many doctors and treatments have it. */
export async function specialtiesInUse(db: D1Database): Promise<SpecialtyInUse[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.name,
         (SELECT count(*) FROM doctors d WHERE d.specialty_id = s.id) AS doctors,
         (SELECT count(*) FROM treatments t WHERE t.specialty_id = s.id) AS treatments
       FROM specialties s ORDER BY s.position, s.name`,
    )
    .all<{ id: string; name: string; doctors: number; treatments: number }>();
  return results.map((row) => ({ _id: row.id, name: row.name, doctors: row.doctors, treatments: row.treatments }));
}

export function specialtyById(db: D1Database, id: string): Promise<{ id: string; name: string } | null> {
  return db.prepare('SELECT id, name FROM specialties WHERE id = ?1').bind(id).first();
}

/** A new specialty, last in the clinic's order; a name taken fails on SPECIALTY_NAME. */
export function insertSpecialty(db: D1Database, id: string, name: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO specialties (id, name, position) SELECT ?1, ?2, coalesce(max(position) + 1, 0) FROM specialties',
    )
    .bind(id, name);
}

/** Renames a specialty (0 changes when it is gone or already so named). */
export function renameSpecialty(db: D1Database, id: string, name: string): D1PreparedStatement {
  return db.prepare('UPDATE specialties SET name = ?2 WHERE id = ?1 AND name IS NOT ?2').bind(id, name);
}

/** Deletes a specialty only while no doctor and no treatment has it, decided in the statement itself. */
export function deleteUnusedSpecialty(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM specialties WHERE id = ?1
         AND NOT EXISTS (SELECT 1 FROM doctors WHERE specialty_id = ?1)
         AND NOT EXISTS (SELECT 1 FROM treatments WHERE specialty_id = ?1)`,
    )
    .bind(id);
}
