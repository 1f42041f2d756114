import {
  NewTreatment,
  type TreatmentAdded,
  TreatmentChanges,
  type TreatmentDeleted,
  type TreatmentUpdated,
} from '../../contract/treatments.ts';
import { requireAdmin } from './auth.ts';
import { clinicNow } from './clinic-time.ts';
import {
  allTreatments,
  deleteOrDeactivateTreatment,
  insertTreatment,
  TREATMENT_NAME,
  treatmentState,
  updateTreatment,
} from './data/treatments.ts';
import { violates } from './data/unique-constraint.ts';
import { specialtyId } from './doctors.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson } from './http.ts';

type Params = { params: Record<string, string> };

const cents = (dollars: number) => Math.round(dollars * 100);

function nameTaken(error: unknown): never {
  if (violates(error, TREATMENT_NAME)) throw new HttpError(409, 'A treatment with this name already exists');
  throw error;
}

/** GET /api/treatments (admin): every treatment, offered or not. */
export async function listTreatments(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  return json(await allTreatments(env.DB));
}

/** POST /api/treatments (admin). */
export async function addTreatment(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, NewTreatment);
  const id = crypto.randomUUID();
  const fields = {
    name: body.name,
    priceCents: cents(body.price),
    durationMinutes: body.durationMinutes,
    specialtyId: await specialtyId(env, body.specialty),
    active: body.active,
  };
  await insertTreatment(env.DB, id, fields).run().catch(nameTaken);
  return json({ acknowledged: true, insertedId: id } satisfies TreatmentAdded, 201);
}

/** PUT /api/treatments/:id (admin): the fields sent change; bookings already made keep theirs. */
export async function editTreatment(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, TreatmentChanges);
  const { meta } = await updateTreatment(env.DB, request.params.id ?? '', {
    name: body.name ?? null,
    priceCents: body.price === undefined ? null : cents(body.price),
    durationMinutes: body.durationMinutes ?? null,
    specialtyId: body.specialty === undefined ? null : await specialtyId(env, body.specialty),
    active: body.active ?? null,
  })
    .run()
    .catch(nameTaken);
  if (meta.changes === 0) throw new HttpError(404, 'No such treatment');
  return json({
    acknowledged: true,
    modifiedCount: meta.changes,
    message: 'Treatment updated',
  } satisfies TreatmentUpdated);
}

/**
 * DELETE /api/treatments/:id (admin): a treatment with upcoming bookings is deactivated instead
 * (patients can no longer book it; the bookings stay), decided in the same statements as the write.
 */
export async function deleteTreatment(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const id = request.params.id ?? '';
  const treatment = await treatmentState(env.DB, id);
  if (!treatment) throw new HttpError(404, 'No such treatment');
  const [deactivated, deleted] = await env.DB.batch(deleteOrDeactivateTreatment(env.DB, id, clinicNow(env).date));
  const answer = (deletedCount: number, wasDeactivated: boolean, message: string): TreatmentDeleted => ({
    acknowledged: true,
    deletedCount,
    deactivated: wasDeactivated,
    message,
  });
  if ((deleted?.meta.changes ?? 0) > 0) return json(answer(1, false, `${treatment.name} deleted`));
  if ((deactivated?.meta.changes ?? 0) > 0) {
    return json(
      answer(
        0,
        true,
        `${treatment.name} has upcoming bookings, so it was deactivated instead: patients can no longer book it, and its bookings stay`,
      ),
    );
  }
  throw new HttpError(404, 'No such treatment');
}
