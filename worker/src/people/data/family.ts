/** The SQL of families (people/family.ts): dependants are users rows with `guardian_id` (migration 0014). */
import type { Dependant } from '../../../../contract/family.ts';

export interface DependantRow {
  id: string;
  name: string;
  birth_date: string;
  relationship: Dependant['relationship'];
}

export const dependantsOf = (db: D1Database, guardianId: string) =>
  db
    .prepare('SELECT id, name, birth_date, relationship FROM users WHERE guardian_id = ?1 ORDER BY name, id')
    .bind(guardianId)
    .all<DependantRow>()
    .then((r) => r.results);

/** The guardian's dependant `id` (null: none, or another account's). */
export const dependantOf = (db: D1Database, guardianId: string, id: string) =>
  db
    .prepare('SELECT id, name, birth_date, relationship FROM users WHERE id = ?1 AND guardian_id = ?2')
    .bind(id, guardianId)
    .first<DependantRow>();

/** Adds a dependant, in the account's language, while the account (a holder, not a dependant) has fewer than `max`. */
export const insertDependant = (
  db: D1Database,
  guardianId: string,
  id: string,
  person: { name: string; birthDate: string; relationship: Dependant['relationship'] },
  max: number,
) =>
  db
    .prepare(
      `INSERT INTO users (id, email, name, role, email_verified, guardian_id, birth_date, relationship, language)
       SELECT ?1, 'dependant-' || ?1 || '@family.invalid', ?2, 'patient', 0, ?3, ?4, ?5,
         (SELECT language FROM users WHERE id = ?3)
        WHERE (SELECT count(*) FROM users WHERE guardian_id = ?3) < ?6
          AND EXISTS (SELECT 1 FROM users WHERE id = ?3 AND guardian_id IS NULL)`,
    )
    .bind(id, person.name, guardianId, person.birthDate, person.relationship, max)
    .run();

/** Changes the fields given; RETURNING the row (null: not the guardian's). */
export const updateDependant = (
  db: D1Database,
  guardianId: string,
  id: string,
  change: {
    name?: string | undefined;
    birthDate?: string | undefined;
    relationship?: Dependant['relationship'] | undefined;
  },
) =>
  db
    .prepare(
      `UPDATE users SET name = coalesce(?3, name), birth_date = coalesce(?4, birth_date), relationship = coalesce(?5, relationship)
       WHERE id = ?1 AND guardian_id = ?2 RETURNING id, name, birth_date, relationship`,
    )
    .bind(id, guardianId, change.name ?? null, change.birthDate ?? null, change.relationship ?? null)
    .first<DependantRow>();

/** Deletes a dependant who has no visits on record (the clinic keeps their history). */
export const deleteDependantWithoutVisits = (db: D1Database, guardianId: string, id: string) =>
  db
    .prepare(
      `DELETE FROM users WHERE id = ?1 AND guardian_id = ?2
         AND NOT EXISTS (SELECT 1 FROM bookings WHERE user_id = ?1)`,
    )
    .bind(id, guardianId)
    .run();
