/**
 * The clinic's specialties (issue 23): who may perform a treatment. The admin adds, renames and
 * deletes them on the clinic setup screens; one in use by a doctor or a treatment is not deleted.
 */
import type { Deleted, Inserted, Modified } from '../../../contract/answers.ts';
import { callerOf } from '../people/auth.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import {
  deleteUnusedSpecialty,
  insertSpecialty,
  renameSpecialty,
  SPECIALTY_NAME,
  specialtiesInUse,
  specialtyById,
} from './data/specialties.ts';

function nameTaken(error: unknown): never {
  if (violates(error, SPECIALTY_NAME)) throw new HttpError(409, 'A specialty with this name already exists');
  throw error;
}

/** GET /api/specialties (admin): each specialty, with how many doctors and treatments have it. */
export async function listSpecialtiesInUse(_request: Request, env: Env): Promise<Response> {
  return json(await specialtiesInUse(env.DB));
}

/** POST /api/specialties (admin). */
export async function addSpecialty(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const { name } = inputOf(request, 'POST /specialties').body;
  const id = crypto.randomUUID();
  await env.DB.batch([
    insertSpecialty(env.DB, id, name),
    auditEntry(env.DB, {
      actor: admin,
      action: 'specialty.added',
      target: { type: 'specialty', id, name },
      after: { name },
    }),
  ]).catch(nameTaken);
  return json({ acknowledged: true, insertedId: id } satisfies Inserted, 201);
}

/** PUT /api/specialties/:id (admin): a new name; doctors and treatments keep the specialty. */
export async function editSpecialty(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /specialties/:id');
  const { name } = input.body;
  const specialty = await specialtyById(env.DB, input.params.id);
  if (!specialty) throw new HttpError(404, 'No such specialty');
  const [renamed] = await env.DB.batch([
    renameSpecialty(env.DB, specialty.id, name),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'specialty.renamed',
        target: { type: 'specialty', id: specialty.id, name },
        before: { name: specialty.name },
        after: { name },
      },
      IF_CHANGED,
    ),
  ]).catch(nameTaken);
  const modifiedCount = renamed?.meta.changes ?? 0;
  return json({
    acknowledged: true,
    modifiedCount,
    message: modifiedCount ? `Renamed to ${name}` : `${name} already has this name`,
  } satisfies Modified);
}

/** DELETE /api/specialties/:id (admin): refused (409) while a doctor or a treatment has it. */
export async function deleteSpecialty(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const specialty = await specialtyById(env.DB, inputOf(request, 'DELETE /specialties/:id').params.id);
  if (!specialty) throw new HttpError(404, 'No such specialty');
  const [deleted] = await env.DB.batch([
    deleteUnusedSpecialty(env.DB, specialty.id),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'specialty.deleted',
        target: { type: 'specialty', id: specialty.id, name: specialty.name },
        before: { name: specialty.name },
      },
      IF_CHANGED,
    ),
  ]);
  if ((deleted?.meta.changes ?? 0) === 0) {
    const use = (await specialtiesInUse(env.DB)).find((s) => s._id === specialty.id);
    if (!use) throw new HttpError(404, 'No such specialty');
    const parts = [
      use.doctors ? `${use.doctors} doctor${use.doctors === 1 ? '' : 's'}` : '',
      use.treatments ? `${use.treatments} treatment${use.treatments === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    throw new HttpError(
      409,
      `${specialty.name} is the specialty of ${parts.join(' and ')}; give them another specialty before deleting it`,
    );
  }
  return json({ acknowledged: true, deletedCount: 1 } satisfies Deleted);
}
