import type { Closure } from '../../../../contract/clinic.ts';

/** Whose closures cover a date ({doctor_id}: null for the whole clinic): the schedule's read. */
/** The closures over `isoDate`: the clinic's (doctor_id null) and each away doctor's, with their reasons and names. */
export function closuresOn(db: D1Database, isoDate: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT c.doctor_id, c.reason, d.name AS doctor FROM closures c LEFT JOIN doctors d ON d.id = c.doctor_id
       WHERE c.to_date >= ?1 AND c.from_date <= ?1 ORDER BY c.from_date, c.id`,
    )
    .bind(isoDate);
}

/** A closure over a day, as the schedule reads it. */
export interface DayClosureRow {
  doctor_id: string | null;
  reason: string;
  doctor: string | null;
}

interface ClosureRow {
  id: string;
  from_date: string;
  to_date: string;
  reason: string;
  doctor_id: string | null;
  doctor: string | null;
  created_at: string;
}

const CLOSURES = `SELECT c.id, c.from_date, c.to_date, c.reason, c.doctor_id, d.name AS doctor, c.created_at
  FROM closures c LEFT JOIN doctors d ON d.id = c.doctor_id`;

const toClosure = (row: ClosureRow): Closure => ({
  _id: row.id,
  from: row.from_date,
  to: row.to_date,
  reason: row.reason,
  doctorId: row.doctor_id,
  doctor: row.doctor,
  createdAt: row.created_at,
});

/** Every closure, by its first day, with the name of the doctor it is for. */
export async function allClosures(db: D1Database): Promise<Closure[]> {
  const { results } = await db.prepare(`${CLOSURES} ORDER BY c.from_date, c.to_date, c.id`).all<ClosureRow>();
  return results.map(toClosure);
}

export async function closureById(db: D1Database, id: string): Promise<Closure | null> {
  const row = await db.prepare(`${CLOSURES} WHERE c.id = ?1`).bind(id).first<ClosureRow>();
  return row && toClosure(row);
}

/** Adds a closure; a doctor_id that is no doctor's fails it on the foreign key. */
export function insertClosure(
  db: D1Database,
  closure: { id: string; from: string; to: string; reason: string; doctorId: string | null },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO closures (id, from_date, to_date, reason, doctor_id) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(closure.id, closure.from, closure.to, closure.reason, closure.doctorId);
}

export function removeClosure(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM closures WHERE id = ?1').bind(id);
}

/** The closures covering a date, with their reasons ({reason, doctor_id}), for the day's schedule. */
export function closureReasonsOn(db: D1Database, isoDate: string): D1PreparedStatement {
  return db
    .prepare('SELECT reason, doctor_id FROM closures WHERE to_date >= ?1 AND from_date <= ?1 ORDER BY from_date, id')
    .bind(isoDate);
}

/** The clinic's own closures (not a doctor's) that overlap the days from `from` to `to`. */
export function clinicClosuresBetween(db: D1Database, from: string, to: string): D1PreparedStatement {
  return db
    .prepare(
      'SELECT from_date, to_date, reason FROM closures WHERE doctor_id IS NULL AND to_date >= ?1 AND from_date <= ?2',
    )
    .bind(from, to);
}

/** The clinic's next closure (not a doctor's) that is not over on `today`, starting by `until`. */
export function nextClinicClosure(db: D1Database, today: string, until: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT from_date, to_date, reason FROM closures
       WHERE doctor_id IS NULL AND to_date >= ?1 AND from_date <= ?2 ORDER BY from_date, id LIMIT 1`,
    )
    .bind(today, until);
}
