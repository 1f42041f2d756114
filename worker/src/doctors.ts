import { NewDoctor, type Doctor, type DoctorAdded, type DoctorDeleted } from '../../contract/doctors.ts';
import { requireAdmin } from './auth.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson } from './http.ts';
import { imageKeyOf, imageUrl, isDoctorPhotoKey } from './images.ts';

type Params = { params: Record<string, string> };

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
});

/** GET /api/doctors (admin). */
export async function listDoctors(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { results } = await env.DB.prepare(
    'SELECT id, name, email, specialty, image_key FROM doctors ORDER BY created_at, name',
  ).all<DoctorRow>();
  return json(results.map(toDoctor));
}

/** POST /api/doctors (admin): the photo must be a doctor photo already uploaded to POST /api/images, used by no other doctor. */
export async function addDoctor(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, NewDoctor);
  const specialty = await env.DB.prepare('SELECT name FROM treatments WHERE name = ?1').bind(body.specialty).first();
  if (!specialty) throw new HttpError(400, `specialty must be one of the clinic's treatments`);
  const key = imageKeyOf(body.image);
  if (!key || !isDoctorPhotoKey(key) || !(await env.PHOTOS.head(key))) {
    throw new HttpError(400, 'image must be a doctor photo uploaded to /api/images');
  }
  const id = crypto.randomUUID();
  try {
    await env.DB.prepare('INSERT INTO doctors (id, name, email, specialty, image_key) VALUES (?1, ?2, ?3, ?4, ?5)')
      .bind(id, body.name, body.email, body.specialty, key)
      .run();
  } catch (error) {
    const message = String(error);
    if (message.includes('doctors.email')) throw new HttpError(409, 'A doctor with this email already exists');
    if (message.includes('doctors.image_key')) throw new HttpError(409, 'This photo already belongs to another doctor');
    throw error;
  }
  return json({ acknowledged: true, insertedId: id } satisfies DoctorAdded, 201);
}

/** DELETE /api/doctors/:id (admin): removes the doctor and their photo from R2 (only ever a doctor photo). */
export async function deleteDoctor(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const row = await env.DB.prepare('DELETE FROM doctors WHERE id = ?1 RETURNING image_key')
    .bind(request.params.id ?? '')
    .first<{ image_key: string }>();
  if (!row) throw new HttpError(404, 'No such doctor');
  if (isDoctorPhotoKey(row.image_key)) await env.PHOTOS.delete(row.image_key);
  return json({ acknowledged: true, deletedCount: 1 } satisfies DoctorDeleted);
}
