/**
 * Families (issue 27): a patient account holds dependants, people it cares for without a login of
 * their own. A dependant is a users row with `guardian_id` (migration 0014) and an address that
 * receives nothing (`dependant-<id>@family.invalid`); its bookings carry the guardian's email, so
 * the guardian gets every message. Every route that names a patient checks it is the caller or one
 * of the caller's dependants (`patientFor`).
 */

import type * as v from 'valibot';
import type { Dependant, DependantAdded, DependantRemoved, DependantSaved } from '../../../contract/family.ts';
import { clinicNow } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { callerOf } from './auth.ts';
import {
  type DependantRow,
  deleteDependantWithoutVisits,
  dependantOf,
  dependantsOf,
  insertDependant,
  updateDependant,
} from './data/family.ts';
import { type Patient, type User, userById } from './data/users.ts';

/** How many dependants one account may hold. */
export const MAX_DEPENDANTS = 12;

const toDependant = (row: DependantRow): Dependant => ({
  _id: row.id,
  name: row.name,
  birthDate: row.birth_date,
  relationship: row.relationship,
});

/** The caller's dependant `id`, or 404 (another account's dependant is not found either). */
export async function ownDependant(env: Env, user: User, id: string): Promise<DependantRow> {
  const row = await dependantOf(env.DB, user.id, id);
  if (!row) throw new HttpError(404, 'No such person in your family');
  return row;
}

/**
 * Who a booking is for: the caller (no `patientId`, or their own id) or one of their dependants,
 * with the caller's email (the guardian gets the messages). Anyone else: 403.
 */
export async function patientFor(env: Env, user: Patient, patientId: string | undefined): Promise<Patient> {
  if (patientId === undefined || patientId === user.id) return user;
  const row = await dependantOf(env.DB, user.id, patientId);
  if (!row) throw new HttpError(403, 'You can book only for yourself and the family in your account');
  return { id: row.id, name: row.name, email: user.email };
}

function birthDateProblem(env: Env, birthDate: string): string | null {
  const today = clinicNow(env).date;
  if (birthDate > today) return 'birthDate must not be in the future';
  if (birthDate < '1900-01-01') return 'birthDate must be after 1900';
  return null;
}

/** GET /api/users/me/dependants: the people in the caller's account, by name. */
export async function listDependants(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  return json((await dependantsOf(env.DB, user.id)).map(toDependant));
}

/** POST /api/users/me/dependants: adds a person the caller cares for (an account holder's, not a dependant's). */
export async function addDependant(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = inputOf(request, 'POST /users/me/dependants').body;
  const problem = birthDateProblem(env, body.birthDate);
  if (problem) throw new HttpError(400, problem);
  const id = crypto.randomUUID();
  const { meta } = await insertDependant(env.DB, user.id, id, body, MAX_DEPENDANTS);
  if (meta.changes === 0) throw new HttpError(409, `An account holds at most ${MAX_DEPENDANTS} people`);
  return json({ acknowledged: true, insertedId: id } satisfies v.InferOutput<typeof DependantAdded>, 201);
}

/** PUT /api/users/me/dependants/:id: changes a dependant's name, date of birth or relationship. */
export async function editDependant(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const input = inputOf(request, 'PUT /users/me/dependants/:id');
  const before = await ownDependant(env, user, input.params.id);
  const body = input.body;
  const problem = body.birthDate ? birthDateProblem(env, body.birthDate) : null;
  if (problem) throw new HttpError(400, problem);
  const row = await updateDependant(env.DB, user.id, before.id, body);
  if (!row) throw new HttpError(404, 'No such person in your family');
  return json({ acknowledged: true, dependant: toDependant(row) } satisfies v.InferOutput<typeof DependantSaved>);
}

/**
 * DELETE /api/users/me/dependants/:id: removes a person without visits on record; one with visits
 * stays (the clinic keeps their history), 409.
 */
export async function removeDependant(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const dependant = await ownDependant(env, user, inputOf(request, 'DELETE /users/me/dependants/:id').params.id);
  const { meta } = await deleteDependantWithoutVisits(env.DB, user.id, dependant.id);
  if (meta.changes === 0) {
    throw new HttpError(
      409,
      `${dependant.name} has visits on record, which the clinic keeps; they stay in your family`,
    );
  }
  return json({ acknowledged: true, deletedCount: 1 } satisfies v.InferOutput<typeof DependantRemoved>);
}

/**
 * The members of a family visit, each the caller or one of their dependants (403 otherwise), and
 * each person once: the caller named by id and left unnamed is one person, not two (400).
 */
export async function membersOf(
  env: Env,
  user: Patient,
  members: { patientId?: string | undefined; treatment: string }[],
) {
  const resolved = await Promise.all(
    members.map(async (m) => ({ patient: await patientFor(env, user, m.patientId), treatment: m.treatment })),
  );
  if (new Set(resolved.map((m) => m.patient.id)).size !== resolved.length) {
    throw new HttpError(400, 'each person comes once in a family visit');
  }
  return resolved;
}

/** The account `accountId` (its holder), for staff only: anyone else is refused. */
export async function accountForDesk(env: Env, caller: User, accountId: string): Promise<Patient> {
  if (caller.role !== 'admin') throw new HttpError(403, 'Only the clinic can book for another account');
  const account = await userById(env.DB, accountId);
  if (!account) throw new HttpError(404, 'No such patient');
  return account;
}

/** The date a person born on `birthDate` turns 18 (ISO; Feb 29 turns on Mar 1 in other years). */
export function eighteenOn(birthDate: string): string {
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year + 18, month - 1, day)).toISOString().slice(0, 10);
}
