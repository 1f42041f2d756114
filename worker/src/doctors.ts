import { type DoctorAdded, type DoctorDeleted, NewDoctor } from '../../contract/doctors.ts';
import { requireAdmin } from './auth.ts';
import { allDoctors, DOCTOR_EMAIL, DOCTOR_PHOTO, insertDoctor, removeDoctor } from './data/doctors.ts';
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
  await requireAdmin(request, env);
  const body = await readJson(request, NewDoctor);
  if (!(await isTreatmentName(env.DB, body.specialty)))
    throw new HttpError(400, `specialty must be one of the clinic's treatments`);
  const key = imageKeyOf(body.image);
  if (!key || !isDoctorPhotoKey(key) || !(await env.PHOTOS.head(key))) {
    throw new HttpError(400, 'image must be a doctor photo uploaded to /api/images');
  }
  const id = crypto.randomUUID();
  try {
    await insertDoctor(env.DB, {
      id,
      name: body.name,
      email: body.email,
      specialty: body.specialty,
      imageKey: key,
    }).run();
  } catch (error) {
    if (violates(error, DOCTOR_EMAIL)) throw new HttpError(409, 'A doctor with this email already exists');
    if (violates(error, DOCTOR_PHOTO)) throw new HttpError(409, 'This photo already belongs to another doctor');
    throw error;
  }
  return json({ acknowledged: true, insertedId: id } satisfies DoctorAdded, 201);
}

/** DELETE /api/doctors/:id (admin): removes the doctor and their photo from R2 (only ever a doctor photo). */
export async function deleteDoctor(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const row = await removeDoctor(env.DB, request.params.id ?? '').first<{ image_key: string }>();
  if (!row) throw new HttpError(404, 'No such doctor');
  if (isDoctorPhotoKey(row.image_key)) await env.PHOTOS.delete(row.image_key);
  return json({ acknowledged: true, deletedCount: 1, stranded: [] } satisfies DoctorDeleted);
}
