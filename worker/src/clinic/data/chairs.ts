import type { Chair } from '../../../../contract/clinic.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

/** One chair per name (compared without case). */
export const CHAIR_NAME: UniqueConstraint = { table: 'chairs', columns: ['name'] };

/** The chairs' ids in the clinic's order ({id}): the schedule's read. */
export function scheduleChairs(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT id FROM chairs ORDER BY position, id');
}

export async function allChairs(db: D1Database): Promise<Chair[]> {
  const { results } = await chairsInOrder(db).all<{ id: string; name: string }>();
  return results.map((row) => ({ _id: row.id, name: row.name }));
}

/** Adds a chair after the others; a name already taken fails it on CHAIR_NAME. */
export function insertChair(db: D1Database, id: string, name: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO chairs (id, name, position) VALUES (?1, ?2, (SELECT coalesce(max(position), -1) + 1 FROM chairs))',
    )
    .bind(id, name);
}

export async function chairById(db: D1Database, id: string): Promise<Chair | null> {
  const row = await db
    .prepare('SELECT id, name FROM chairs WHERE id = ?1')
    .bind(id)
    .first<{ id: string; name: string }>();
  return row && { _id: row.id, name: row.name };
}

export function chairExists(db: D1Database, id: string): Promise<boolean> {
  return db
    .prepare('SELECT 1 AS yes FROM chairs WHERE id = ?1')
    .bind(id)
    .first('yes')
    .then((row) => row !== null);
}

/** Renames a chair; a name another chair has fails it on CHAIR_NAME. */
export function renameChair(db: D1Database, id: string, name: string): D1PreparedStatement {
  return db.prepare('UPDATE chairs SET name = ?2 WHERE id = ?1 AND name IS NOT ?2').bind(id, name);
}

/** Deletes a chair; its bookings keep their time but no chair (chair_id set to NULL). */
export function removeChair(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM chairs WHERE id = ?1').bind(id);
}

/** The chairs ({id, name}) in the clinic's order, for a batch. */
export function chairsInOrder(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT id, name FROM chairs ORDER BY position, id');
}
