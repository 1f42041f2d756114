import { type DoctorAdded, type DoctorDeleted, NewDoctor } from '../../contract/doctors.ts';
import { requireAdmin } from './auth.ts';
import { auditEntry, IF_CHANGED } from './data/audit.ts';
import { allDoctors, DOCTOR_EMAIL, DOCTOR_PHOTO, doctorById, insertDoctor, removeDoctor } from './data/doctors.ts';
import { isTreatmentName } from './data/treatments.ts';
import { violates } from './data/unique-constraint.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson } from './http.ts';
import { imageKeyOf, isDoctorPhotoKey } from './images.ts';

type Params = { params: Record<string, string> };

/** GET /api/doctors (admin). */
export async function listDoctors(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  return json(await allDoctors(env.DB));
}

/** POST /api/doctors (admin): the photo must be a doctor photo already uploaded to POST /api/images, used by no other doctor. */
export async function addDoctor(request: Request, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const body = await readJson(request, NewDoctor);
  if (!(await isTreatmentName(env.DB, body.specialty)))
    throw new HttpError(400, `specialty must be one of the clinic's treatments`);
  const key = imageKeyOf(body.image);
  if (!key || !isDoctorPhotoKey(key) || !(await env.PHOTOS.head(key))) {
    throw new HttpError(400, 'image must be a doctor photo uploaded to /api/images');
  }
  const id = crypto.randomUUID();
  const doctor = { name: body.name, email: body.email, specialty: body.specialty };
  try {
    await env.DB.batch([
      insertDoctor(env.DB, { id, ...doctor, imageKey: key }),
      auditEntry(env.DB, {
        actor: admin,
        action: 'doctor.added',
        target: { type: 'doctor', id, name: body.name },
        after: doctor,
      }),
    ]);
  } catch (error) {
    if (violates(error, DOCTOR_EMAIL)) throw new HttpError(409, 'A doctor with this email already exists');
    if (violates(error, DOCTOR_PHOTO)) throw new HttpError(409, 'This photo already belongs to another doctor');
    throw error;
  }
  return json({ acknowledged: true, insertedId: id } satisfies DoctorAdded, 201);
}

/** DELETE /api/doctors/:id (admin): removes the doctor and their photo from R2 (only ever a doctor photo). */
export async function deleteDoctor(request: Request & Params, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const id = request.params.id ?? '';
  const doctor = await doctorById(env.DB, id);
  if (!doctor) throw new HttpError(404, 'No such doctor');
  const [removed] = await env.DB.batch([
    removeDoctor(env.DB, id),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'doctor.deleted',
        target: { type: 'doctor', id, name: doctor.name },
        before: { name: doctor.name, email: doctor.email, specialty: doctor.specialty },
      },
      IF_CHANGED,
    ),
  ]);
  const row = removed?.results[0] as { image_key: string } | undefined;
  if (!row) throw new HttpError(404, 'No such doctor');
  if (isDoctorPhotoKey(row.image_key)) await env.PHOTOS.delete(row.image_key);
  return json({ acknowledged: true, deletedCount: 1 } satisfies DoctorDeleted);
}
