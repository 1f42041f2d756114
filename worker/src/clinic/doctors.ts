import type { DoctorAdded, DoctorDeleted, DoctorUpdated } from '../../../contract/doctors.ts';
import { RETRY_WITH_FORCE, RETRY_WITH_FORCE_QUERY, strand } from '../booking/engine/strand.ts';
import { callerOf } from '../people/auth.ts';
import { auditEntry, changesAnything, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { clockOf, minuteOf } from './data/clinic-hours.ts';
import {
  allDoctors,
  DOCTOR_EMAIL,
  DOCTOR_PHOTO,
  doctorById,
  insertDoctor,
  removeDoctor,
  team,
  updateDoctor,
  type WeekdayHours,
} from './data/doctors.ts';
import { imageKeyOf, imageUrl, isDoctorPhotoKey } from './data/photo-keys.ts';
import { specialtyIdByName } from './data/specialties.ts';

/** GET /api/doctors (admin). */
export async function listDoctors(_request: Request, env: Env): Promise<Response> {
  return json(await allDoctors(env.DB));
}

/** GET /api/team (anyone): the doctors' names, specialties and photos for the home page. */
export async function listTeam(_request: Request, env: Env): Promise<Response> {
  return json(await team(env.DB));
}

/** The id of a specialty named in a body (400 when the clinic has none of that name). */
export async function specialtyId(env: Env, name: string): Promise<string> {
  const id = await specialtyIdByName(env.DB, name);
  if (!id)
    throw new HttpError(400, `specialty must be one of the clinic's specialties (GET /api/appointmentSpecialty)`);
  return id;
}

/** A doctor as the audit trail records them. */
const snapshotOf = (d: {
  name: string;
  email: string;
  specialty: string;
  imageKey: string;
  weekly: readonly WeekdayHours[];
}) => ({
  name: d.name,
  email: d.email,
  specialty: d.specialty,
  photo: imageUrl(d.imageKey),
  hours: hoursText(d.weekly),
});

function emailOrPhotoTaken(error: unknown): never {
  if (violates(error, DOCTOR_EMAIL)) throw new HttpError(409, 'A doctor with this email already exists');
  if (violates(error, DOCTOR_PHOTO)) throw new HttpError(409, 'This photo already belongs to another doctor');
  throw error;
}

/** The doctor photo a body names: one uploaded to POST /api/images under doctors/, still in R2 (400 otherwise). */
async function doctorPhoto(env: Env, image: string): Promise<string> {
  const key = imageKeyOf(image);
  if (!key || !isDoctorPhotoKey(key) || !(await env.PHOTOS.head(key))) {
    throw new HttpError(400, 'image must be a doctor photo uploaded to /api/images');
  }
  return key;
}

/** A body's hours as [weekday, start, end] per working weekday: `weeklyHours`, or `workingDays` with one `hours`. */
function weeklyOf(body: {
  weeklyHours?: { weekday: number; start: string; end: string }[] | undefined;
  workingDays: number[];
  hours: { start: string; end: string };
}): WeekdayHours[] {
  const days = body.weeklyHours
    ? body.weeklyHours.map((d) => [d.weekday, minuteOf(d.start), minuteOf(d.end)] as const)
    : body.workingDays.map((day) => [day, minuteOf(body.hours.start), minuteOf(body.hours.end)] as const);
  return [...days].sort((a, b) => a[0] - b[0]);
}

/** Hours per weekday as the audit trail records them: "Mon 09:00-13:00, Wed 12:00-18:00". */
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const hoursText = (weekly: readonly WeekdayHours[]) =>
  weekly.map(([day, start, end]) => `${WEEKDAYS[day]} ${clockOf(start)}-${clockOf(end)}`).join(', ') ||
  'No working days';

/**
 * POST /api/doctors (admin): the photo must be a doctor photo already uploaded to POST /api/images,
 * used by no other doctor. Without hours, every day from 09:00 to 17:00.
 */
export async function addDoctor(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = inputOf(request, 'POST /doctors').body;
  const specialty = await specialtyId(env, body.specialty);
  const imageKey = await doctorPhoto(env, body.image);
  const id = crypto.randomUUID();
  const weekly = weeklyOf(body);
  const [insert, ...hours] = insertDoctor(env.DB, {
    id,
    name: body.name,
    email: body.email,
    specialtyId: specialty,
    imageKey,
    weekly,
  });
  await env.DB.batch([
    insert,
    ...hours,
    auditEntry(env.DB, {
      actor: admin,
      action: 'doctor.added',
      target: { type: 'doctor', id, name: body.name },
      after: snapshotOf({ ...body, imageKey, weekly }),
    }),
  ]).catch(emailOrPhotoTaken);
  return json({ acknowledged: true, insertedId: id } satisfies DoctorAdded, 201);
}

/**
 * PUT /api/doctors/:id (admin): name, email, specialty, photo and hours (the same every working day,
 * or per weekday); those not sent stay. Refused (409) when it would strand upcoming bookings, unless
 * `force`. A new photo replaces the old one, which is deleted from R2.
 */
export async function editDoctor(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /doctors/:id');
  const body = input.body;
  const id = input.params.id;
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  const specialty = body.specialty === undefined ? doctor.specialtyId : await specialtyId(env, body.specialty);
  const imageKey = body.image === undefined ? doctor.imageKey : await doctorPhoto(env, body.image);
  const weekly =
    body.weeklyHours || body.workingDays || body.hours
      ? weeklyOf({
          weeklyHours: body.weeklyHours,
          workingDays: body.workingDays ?? doctor.workingDays,
          hours: body.hours ?? doctor.hours,
        })
      : doctor.weekly;
  const fields = {
    name: body.name ?? doctor.name,
    email: body.email ?? doctor.email,
    specialtyId: specialty,
    imageKey,
    weekly,
  };
  const change = {
    kind: 'doctor',
    doctorId: id,
    hours: weekly,
    specialtyId: specialty === doctor.specialtyId ? null : specialty,
  } as const;
  const before = snapshotOf(doctor);
  const after = snapshotOf({ ...fields, specialty: body.specialty ?? doctor.specialty });
  const audit = auditEntry(
    env.DB,
    { actor: admin, action: 'doctor.updated', target: { type: 'doctor', id, name: fields.name }, before, after },
    IF_CHANGED,
  );
  const [update, ...hours] = updateDoctor(env.DB, id, fields);
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    change,
    {
      force: body.force,
      retry: RETRY_WITH_FORCE,
      dryRun: input.query.dryRun === '1',
      actor: admin,
    },
    [update, ...(changesAnything(before, after) ? [audit] : []), ...hours],
  ).catch(emailOrPhotoTaken);
  // D1 counts the rows its triggers rewrote too (the doctor's hours): one doctor was modified.
  const modifiedCount = Math.min(results[0]?.meta.changes ?? 0, 1);
  if (modifiedCount === 0) throw new HttpError(404, 'No such doctor');
  if (imageKey !== doctor.imageKey && isDoctorPhotoKey(doctor.imageKey)) await env.PHOTOS.delete(doctor.imageKey);
  return json({
    acknowledged: true,
    modifiedCount,
    message: 'Doctor updated',
    stranded,
    withdrawnOffers,
  } satisfies DoctorUpdated);
}

/**
 * DELETE /api/doctors/:id[?force=true] (admin): removes the doctor and their photo from R2 (only
 * ever a doctor photo). Refused (409) while they have upcoming bookings, unless `force`: then
 * those bookings stay, without a doctor, marked for review.
 */
export async function deleteDoctor(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'DELETE /doctors/:id');
  const query = input.query;
  const force = query.force === 'true';
  const id = input.params.id;
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    { kind: 'doctor deleted', doctorId: id },
    { force, retry: RETRY_WITH_FORCE_QUERY, dryRun: query.dryRun === '1', actor: admin },
    [
      removeDoctor(env.DB, id),
      auditEntry(
        env.DB,
        {
          actor: admin,
          action: 'doctor.deleted',
          target: { type: 'doctor', id, name: doctor.name },
          before: snapshotOf(doctor),
        },
        IF_CHANGED,
      ),
    ],
  );
  const row = results[0]?.results[0] as { image_key: string } | undefined;
  if (!row) throw new HttpError(404, 'No such doctor');
  if (isDoctorPhotoKey(row.image_key)) await env.PHOTOS.delete(row.image_key);
  return json({ acknowledged: true, deletedCount: 1, stranded, withdrawnOffers } satisfies DoctorDeleted);
}
