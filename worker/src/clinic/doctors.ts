import { ForceQuery } from '../../../contract/bookings.ts';
import {
  type Doctor,
  type DoctorAdded,
  DoctorChanges,
  type DoctorDeleted,
  type DoctorUpdated,
  NewDoctor,
} from '../../../contract/doctors.ts';
import { RETRY_WITH_FORCE, RETRY_WITH_FORCE_QUERY, strand } from '../booking/engine.ts';
import { callerOf } from '../people/auth.ts';
import { auditEntry, changesAnything, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readJson, readQuery } from '../platform/http.ts';
import { minuteOf } from './data/clinic-hours.ts';
import {
  allDoctors,
  DOCTOR_EMAIL,
  DOCTOR_PHOTO,
  daysMask,
  daysOf,
  doctorById,
  insertDoctor,
  removeDoctor,
  team,
  updateDoctor,
} from './data/doctors.ts';
import { imageKeyOf, isDoctorPhotoKey } from './data/photo-keys.ts';
import { specialtyIdByName } from './data/specialties.ts';

type Params = { params: Record<string, string> };

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
const snapshotOf = (doctor: Pick<Doctor, 'name' | 'email' | 'specialty' | 'workingDays' | 'hours'>) => ({
  name: doctor.name,
  email: doctor.email,
  specialty: doctor.specialty,
  workingDays: doctor.workingDays,
  hours: doctor.hours,
});

function emailOrPhotoTaken(error: unknown): never {
  if (violates(error, DOCTOR_EMAIL)) throw new HttpError(409, 'A doctor with this email already exists');
  if (violates(error, DOCTOR_PHOTO)) throw new HttpError(409, 'This photo already belongs to another doctor');
  throw error;
}

/**
 * POST /api/doctors (admin): the photo must be a doctor photo already uploaded to POST /api/images,
 * used by no other doctor. Without working days and hours, every day from 09:00 to 17:00.
 */
export async function addDoctor(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = await readJson(request, NewDoctor);
  const specialty = await specialtyId(env, body.specialty);
  const key = imageKeyOf(body.image);
  if (!key || !isDoctorPhotoKey(key) || !(await env.PHOTOS.head(key))) {
    throw new HttpError(400, 'image must be a doctor photo uploaded to /api/images');
  }
  const id = crypto.randomUUID();
  const fields = {
    name: body.name,
    email: body.email,
    specialtyId: specialty,
    workingDays: daysMask(body.workingDays),
    startMinute: minuteOf(body.hours.start),
    endMinute: minuteOf(body.hours.end),
  };
  await env.DB.batch([
    insertDoctor(env.DB, { id, imageKey: key, ...fields }),
    auditEntry(env.DB, {
      actor: admin,
      action: 'doctor.added',
      target: { type: 'doctor', id, name: body.name },
      after: snapshotOf({ ...body, workingDays: daysOf(fields.workingDays) }),
    }),
  ]).catch(emailOrPhotoTaken);
  return json({ acknowledged: true, insertedId: id } satisfies DoctorAdded, 201);
}

/**
 * PUT /api/doctors/:id (admin): name, email, specialty, working days and hours; those not sent
 * stay. Refused (409) when it would strand upcoming bookings, unless `force`.
 */
export async function editDoctor(request: Request & Params, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = await readJson(request, DoctorChanges);
  const id = request.params.id ?? '';
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  const specialty = body.specialty === undefined ? doctor.specialtyId : await specialtyId(env, body.specialty);
  const fields = {
    name: body.name ?? doctor.name,
    email: body.email ?? doctor.email,
    specialtyId: specialty,
    workingDays: body.workingDays ? daysMask(body.workingDays) : doctor.workingDaysMask,
    startMinute: minuteOf(body.hours?.start ?? doctor.hours.start),
    endMinute: minuteOf(body.hours?.end ?? doctor.hours.end),
  };
  const change = {
    kind: 'doctor',
    doctorId: id,
    workingDays: fields.workingDays,
    start: fields.startMinute,
    end: fields.endMinute,
    specialtyId: specialty === doctor.specialtyId ? null : specialty,
  } as const;
  const after = snapshotOf({
    name: fields.name,
    email: fields.email,
    specialty: body.specialty ?? doctor.specialty,
    workingDays: daysOf(fields.workingDays),
    hours: { start: body.hours?.start ?? doctor.hours.start, end: body.hours?.end ?? doctor.hours.end },
  });
  const audit = auditEntry(
    env.DB,
    {
      actor: admin,
      action: 'doctor.updated',
      target: { type: 'doctor', id, name: fields.name },
      before: snapshotOf(doctor),
      after,
    },
    IF_CHANGED,
  );
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    change,
    { force: body.force, retry: RETRY_WITH_FORCE },
    [updateDoctor(env.DB, id, fields), ...(changesAnything(snapshotOf(doctor), after) ? [audit] : [])],
  ).catch(emailOrPhotoTaken);
  const modifiedCount = results[0]?.meta.changes ?? 0;
  if (modifiedCount === 0) throw new HttpError(404, 'No such doctor');
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
export async function deleteDoctor(request: Request & Params, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const force = readQuery(request, ForceQuery).force === 'true';
  const id = request.params.id ?? '';
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    { kind: 'doctor deleted', doctorId: id },
    { force, retry: RETRY_WITH_FORCE_QUERY },
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
