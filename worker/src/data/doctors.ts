import type { Doctor } from '../../../contract/doctors.ts';
import { imageUrl } from '../images.ts';
import type { UniqueConstraint } from './unique-constraint.ts';

/** One doctor per email (compared without case). */
export const DOCTOR_EMAIL: UniqueConstraint = { table: 'doctors', columns: ['email'] };
/** A photo belongs to one doctor. */
export const DOCTOR_PHOTO: UniqueConstraint = { table: 'doctors', columns: ['image_key'] };

interface DoctorRow {
  id: string;
  name: string;
  email: string;
  specialty: string;
  image_key: string;
}

const toDoctor = (row: DoctorRow): Doctor => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  specialty: row.specialty,
  image: imageUrl(row.image_key),
  workingDays: [0, 1, 2, 3, 4, 5, 6],
  hours: { start: '09:00', end: '17:00' },
});

/** Every doctor, in the order they were added. */
export async function allDoctors(db: D1Database): Promise<Doctor[]> {
  const { results } = await db
    .prepare('SELECT id, name, email, specialty, image_key FROM doctors ORDER BY created_at, name')
    .all<DoctorRow>();
  return results.map(toDoctor);
}

/** Adds a doctor; an email or a photo already taken fails it on DOCTOR_EMAIL or DOCTOR_PHOTO. */
export function insertDoctor(
  db: D1Database,
  doctor: { id: string; name: string; email: string; specialty: string; imageKey: string },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO doctors (id, name, email, specialty, image_key) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(doctor.id, doctor.name, doctor.email, doctor.specialty, doctor.imageKey);
}

/** Deletes a doctor, RETURNING the R2 key of their photo (no row when there was no such doctor). */
export function removeDoctor(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM doctors WHERE id = ?1 RETURNING image_key').bind(id);
}
