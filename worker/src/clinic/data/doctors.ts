import type { Doctor, TeamMember } from '../../../../contract/doctors.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import { clockOf } from './clinic-hours.ts';
import { imageUrl } from './photo-keys.ts';

/** One doctor per email (compared without case). */
export const DOCTOR_EMAIL: UniqueConstraint = { table: 'doctors', columns: ['email'] };
/** A photo belongs to one doctor. */
export const DOCTOR_PHOTO: UniqueConstraint = { table: 'doctors', columns: ['image_key'] };

/** Weekdays (0 Sunday … 6 Saturday) as the bit mask stored in working_days, and back. */
export const daysOf = (mask: number) => [0, 1, 2, 3, 4, 5, 6].filter((day) => (mask >> day) & 1);

/** A doctor's hours on one weekday, in minutes after midnight: [weekday, start, end]. */
export type WeekdayHours = readonly [number, number, number];

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
  /** JSON: [[weekday, start, end], …] by weekday (doctor_hours, migration 0012). */
  weekly: string;
}

const weeklyOf = (row: DoctorRow) => JSON.parse(row.weekly) as WeekdayHours[];

const toDoctor = (row: DoctorRow): Doctor => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  specialty: row.specialty,
  image: imageUrl(row.image_key),
  workingDays: daysOf(row.working_days),
  hours: { start: clockOf(row.start_minute), end: clockOf(row.end_minute) },
  weeklyHours: weeklyOf(row).map(([weekday, start, end]) => ({ weekday, start: clockOf(start), end: clockOf(end) })),
});

const DOCTORS = `SELECT d.id, d.name, d.email, s.name AS specialty, d.specialty_id, d.image_key, d.working_days, d.start_minute, d.end_minute,
    (SELECT coalesce(json_group_array(json_array(h.weekday, h.start_minute, h.end_minute)), '[]')
       FROM (SELECT * FROM doctor_hours WHERE doctor_id = d.id ORDER BY weekday) h) AS weekly
  FROM doctors d JOIN specialties s ON s.id = d.specialty_id`;

/** Every doctor, in the order they were added. */
export async function allDoctors(db: D1Database): Promise<Doctor[]> {
  const { results } = await db.prepare(`${DOCTORS} ORDER BY d.created_at, d.name`).all<DoctorRow>();
  return results.map(toDoctor);
}

export async function doctorById(
  db: D1Database,
  id: string,
): Promise<(Doctor & { specialtyId: string; imageKey: string; weekly: WeekdayHours[] }) | null> {
  const row = await db.prepare(`${DOCTORS} WHERE d.id = ?1`).bind(id).first<DoctorRow>();
  return row && { ...toDoctor(row), specialtyId: row.specialty_id, imageKey: row.image_key, weekly: weeklyOf(row) };
}

/** The home page's "Our doctors": name, specialty and photo, in the order they were added. */
export async function team(db: D1Database): Promise<TeamMember[]> {
  const { results } = await db.prepare(`${DOCTORS} ORDER BY d.created_at, d.name`).all<DoctorRow>();
  return results.map((row) => ({
    _id: row.id,
    name: row.name,
    specialty: row.specialty,
    specialtyId: row.specialty_id,
    image: imageUrl(row.image_key),
  }));
}

export interface ScheduleDoctorRow {
  id: string;
  specialty_id: string;
  /** Their hours on the day read. */
  start_minute: number;
  end_minute: number;
}

/** The doctors who work on `weekday`, with their specialty and their hours that day (ScheduleDoctorRow): the schedule's read. */
export function scheduleDoctors(db: D1Database, weekday: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT d.id, d.specialty_id, h.start_minute, h.end_minute
       FROM doctors d JOIN doctor_hours h ON h.doctor_id = d.id AND h.weekday = ?1 ORDER BY d.id`,
    )
    .bind(weekday);
}

export interface DoctorFields {
  name: string;
  email: string;
  specialtyId: string;
  imageKey: string;
  /** Their hours on each working weekday. */
  weekly: readonly WeekdayHours[];
}

/** The summary columns of doctors (the weekdays as a bit mask, the earliest start, the latest end) of per-weekday hours. */
function summaryOf(weekly: readonly WeekdayHours[]) {
  return {
    mask: weekly.reduce((mask, [day]) => mask | (1 << day), 0),
    start: weekly.length ? Math.min(...weekly.map(([, start]) => start)) : 540,
    end: weekly.length ? Math.max(...weekly.map(([, , end]) => end)) : 1020,
  };
}

/** Replaces a doctor's hours per weekday with `weekly` (after the doctors row is written: its triggers write uniform hours). */
function writeWeekly(db: D1Database, id: string, weekly: readonly WeekdayHours[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM doctor_hours WHERE doctor_id = ?1').bind(id),
    db
      .prepare(
        `INSERT INTO doctor_hours (doctor_id, weekday, start_minute, end_minute)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?2)
         WHERE EXISTS (SELECT 1 FROM doctors WHERE id = ?1)`,
      )
      .bind(id, JSON.stringify(weekly)),
  ];
}

/** Adds a doctor with their hours per weekday; an email or a photo already taken fails it on DOCTOR_EMAIL or DOCTOR_PHOTO. */
export function insertDoctor(
  db: D1Database,
  doctor: DoctorFields & { id: string },
): [D1PreparedStatement, ...D1PreparedStatement[]] {
  const d = doctor;
  const summary = summaryOf(d.weekly);
  return [
    db
      .prepare(
        `INSERT INTO doctors (id, name, email, specialty_id, working_days, start_minute, end_minute, image_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
      )
      .bind(d.id, d.name, d.email, d.specialtyId, summary.mask, summary.start, summary.end, d.imageKey),
    ...writeWeekly(db, d.id, d.weekly),
  ];
}

/**
 * Sets a doctor's fields and hours per weekday; an email or a photo already taken fails it on
 * DOCTOR_EMAIL or DOCTOR_PHOTO. The first statement's changes say whether the doctor exists.
 */
export function updateDoctor(
  db: D1Database,
  id: string,
  doctor: DoctorFields,
): [D1PreparedStatement, ...D1PreparedStatement[]] {
  const d = doctor;
  const summary = summaryOf(d.weekly);
  return [
    db
      .prepare(
        `UPDATE doctors SET name = ?2, email = ?3, specialty_id = ?4, working_days = ?5, start_minute = ?6, end_minute = ?7,
           image_key = ?8
         WHERE id = ?1`,
      )
      .bind(id, d.name, d.email, d.specialtyId, summary.mask, summary.start, summary.end, d.imageKey),
    ...writeWeekly(db, id, d.weekly),
  ];
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

/** Every doctor's name by id. */
export async function doctorNames(db: D1Database): Promise<Map<string, string>> {
  const { results } = await db.prepare('SELECT id, name FROM doctors').all<{ id: string; name: string }>();
  return new Map(results.map((d) => [d.id, d.name]));
}
