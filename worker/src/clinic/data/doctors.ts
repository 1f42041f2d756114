import type { Doctor, TeamMember } from '../../../../contract/doctors.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import { clockOf } from './clinic-hours.ts';
import { imageUrl } from './photo-keys.ts';

/** One doctor per email (compared without case). */
export const DOCTOR_EMAIL: UniqueConstraint = { table: 'doctors', columns: ['email'] };
/** A photo belongs to one doctor. */
export const DOCTOR_PHOTO: UniqueConstraint = { table: 'doctors', columns: ['image_key'] };

/** Weekdays (0 Sunday … 6 Saturday) as the bit mask stored in working_days, and back. */
export const daysMask = (days: readonly number[]) => days.reduce((mask, day) => mask | (1 << day), 0);
export const daysOf = (mask: number) => [0, 1, 2, 3, 4, 5, 6].filter((day) => (mask >> day) & 1);

interface DoctorRow {
  id: string;
  name: string;
  email: string;
  specialty: string;
  specialty_id: string;
  image_key: string;
  working_days: number;
  start_minute: number;
  end_minute: number;
}

const toDoctor = (row: DoctorRow): Doctor => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  specialty: row.specialty,
  image: imageUrl(row.image_key),
  workingDays: daysOf(row.working_days),
  hours: { start: clockOf(row.start_minute), end: clockOf(row.end_minute) },
});

const DOCTORS = `SELECT d.id, d.name, d.email, s.name AS specialty, d.specialty_id, d.image_key, d.working_days, d.start_minute, d.end_minute
  FROM doctors d JOIN specialties s ON s.id = d.specialty_id`;

/** Every doctor, in the order they were added. */
export async function allDoctors(db: D1Database): Promise<Doctor[]> {
  const { results } = await db.prepare(`${DOCTORS} ORDER BY d.created_at, d.name`).all<DoctorRow>();
  return results.map(toDoctor);
}

export async function doctorById(
  db: D1Database,
  id: string,
): Promise<(Doctor & { specialtyId: string; workingDaysMask: number }) | null> {
  const row = await db.prepare(`${DOCTORS} WHERE d.id = ?1`).bind(id).first<DoctorRow>();
  return row && { ...toDoctor(row), specialtyId: row.specialty_id, workingDaysMask: row.working_days };
}

/** The home page's "Our doctors": name, specialty and photo, in the order they were added. */
export async function team(db: D1Database): Promise<TeamMember[]> {
  const { results } = await db.prepare(`${DOCTORS} ORDER BY d.created_at, d.name`).all<DoctorRow>();
  return results.map((row) => ({
    _id: row.id,
    name: row.name,
    specialty: row.specialty,
    image: imageUrl(row.image_key),
  }));
}

export interface ScheduleDoctorRow {
  id: string;
  specialty_id: string;
  working_days: number;
  start_minute: number;
  end_minute: number;
}

/** Every doctor's specialty, days and hours (ScheduleDoctorRow): the schedule's read. */
export function scheduleDoctors(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT id, specialty_id, working_days, start_minute, end_minute FROM doctors ORDER BY id');
}

export interface DoctorFields {
  name: string;
  email: string;
  specialtyId: string;
  /** Bit mask: bit d for weekday d. */
  workingDays: number;
  startMinute: number;
  endMinute: number;
}

/** Adds a doctor; an email or a photo already taken fails it on DOCTOR_EMAIL or DOCTOR_PHOTO. */
export function insertDoctor(
  db: D1Database,
  doctor: DoctorFields & { id: string; imageKey: string },
): D1PreparedStatement {
  const d = doctor;
  return db
    .prepare(
      `INSERT INTO doctors (id, name, email, specialty_id, working_days, start_minute, end_minute, image_key)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
    )
    .bind(d.id, d.name, d.email, d.specialtyId, d.workingDays, d.startMinute, d.endMinute, d.imageKey);
}

/** Sets a doctor's fields; an email already taken fails it on DOCTOR_EMAIL. */
export function updateDoctor(db: D1Database, id: string, doctor: DoctorFields): D1PreparedStatement {
  const d = doctor;
  return db
    .prepare(
      `UPDATE doctors SET name = ?2, email = ?3, specialty_id = ?4, working_days = ?5, start_minute = ?6, end_minute = ?7
       WHERE id = ?1`,
    )
    .bind(id, d.name, d.email, d.specialtyId, d.workingDays, d.startMinute, d.endMinute);
}

/** Deletes a doctor, RETURNING the R2 key of their photo (no row when there was no such doctor). */
export function removeDoctor(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM doctors WHERE id = ?1 RETURNING image_key').bind(id);
}

export interface RosterRow {
  id: string;
  name: string;
  specialty: string;
  working_days: number;
}

/** Every doctor's name, specialty and working days (RosterRow), in the order they were added: the day's schedule. */
export function roster(db: D1Database): D1PreparedStatement {
  return db.prepare(`${DOCTORS} ORDER BY d.created_at, d.name`);
}
