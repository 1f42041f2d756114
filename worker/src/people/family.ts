/**
 * Families (issue 27): a patient account holds dependants, people it cares for without a login of
 * their own. A dependant is a users row with `guardian_id` (migration 0014) and an address that
 * receives nothing (`dependant-<id>@family.invalid`); its bookings carry the guardian's email, so
 * the guardian gets every message. Every route that names a patient checks it is the caller or one
 * of the caller's dependants (`patientFor`).
 */

import type * as v from 'valibot';
import {
  type Dependant,
  type DependantAdded,
  DependantChange,
  type DependantRemoved,
  type DependantSaved,
  type FamilyOptions,
  FamilyOptionsQuery,
  FamilyVisit,
  type FamilyVisitBooked,
  INVITES_PER_ACCOUNT_PER_DAY,
  MAX_FAMILY_MEMBERS,
  NewDependant,
  RecordInvite,
  type RecordInvited,
} from '../../../contract/family.ts';
import { placeFamily } from '../booking/engine/family.ts';
import type { Patient } from '../booking/engine/plan.ts';
import { familyFit } from '../booking/family-fit.ts';
import { recordInvited } from '../messages/messages.ts';
import { clinicNow, displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readJson, readQuery } from '../platform/http.ts';
import { spend } from '../platform/rate-limit.ts';
import { callerOf, verifiedCallerOf } from './auth.ts';
import { inviteAddress, USER_EMAIL, type User, userById } from './data/users.ts';

type Params = { params: Record<string, string> };

/** How many dependants one account may hold. */
export const MAX_DEPENDANTS = 12;

interface DependantRow {
  id: string;
  name: string;
  birth_date: string;
  relationship: Dependant['relationship'];
}

const toDependant = (row: DependantRow): Dependant => ({
  _id: row.id,
  name: row.name,
  birthDate: row.birth_date,
  relationship: row.relationship,
});

const dependantsOf = (db: D1Database, guardianId: string) =>
  db
    .prepare('SELECT id, name, birth_date, relationship FROM users WHERE guardian_id = ?1 ORDER BY name, id')
    .bind(guardianId)
    .all<DependantRow>()
    .then((r) => r.results);

/** The caller's dependant `id`, or 404 (another account's dependant is not found either). */
async function ownDependant(env: Env, user: User, id: string): Promise<DependantRow> {
  const row = await env.DB.prepare(
    'SELECT id, name, birth_date, relationship FROM users WHERE id = ?1 AND guardian_id = ?2',
  )
    .bind(id, user.id)
    .first<DependantRow>();
  if (!row) throw new HttpError(404, 'No such person in your family');
  return row;
}

/**
 * Who a booking is for: the caller (no `patientId`, or their own id) or one of their dependants,
 * with the caller's email (the guardian gets the messages). Anyone else: 403.
 */
export async function patientFor(env: Env, user: Patient, patientId: string | undefined): Promise<Patient> {
  if (patientId === undefined || patientId === user.id) return user;
  const row = await env.DB.prepare('SELECT id, name FROM users WHERE id = ?1 AND guardian_id = ?2')
    .bind(patientId, user.id)
    .first<{ id: string; name: string }>();
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
  const body = await readJson(request, NewDependant);
  const problem = birthDateProblem(env, body.birthDate);
  if (problem) throw new HttpError(400, problem);
  const id = crypto.randomUUID();
  const { meta } = await env.DB.prepare(
    `INSERT INTO users (id, email, name, role, email_verified, guardian_id, birth_date, relationship)
     SELECT ?1, 'dependant-' || ?1 || '@family.invalid', ?2, 'patient', 0, ?3, ?4, ?5
      WHERE (SELECT count(*) FROM users WHERE guardian_id = ?3) < ?6
        AND EXISTS (SELECT 1 FROM users WHERE id = ?3 AND guardian_id IS NULL)`,
  )
    .bind(id, body.name, user.id, body.birthDate, body.relationship, MAX_DEPENDANTS)
    .run();
  if (meta.changes === 0) throw new HttpError(409, `An account holds at most ${MAX_DEPENDANTS} people`);
  return json({ acknowledged: true, insertedId: id } satisfies v.InferOutput<typeof DependantAdded>, 201);
}

/** PUT /api/users/me/dependants/:id: changes a dependant's name, date of birth or relationship. */
export async function editDependant(request: Request & Params, env: Env): Promise<Response> {
  const user = callerOf(request);
  const before = await ownDependant(env, user, request.params.id ?? '');
  const body = await readJson(request, DependantChange);
  const problem = body.birthDate ? birthDateProblem(env, body.birthDate) : null;
  if (problem) throw new HttpError(400, problem);
  const row = await env.DB.prepare(
    `UPDATE users SET name = coalesce(?3, name), birth_date = coalesce(?4, birth_date), relationship = coalesce(?5, relationship)
     WHERE id = ?1 AND guardian_id = ?2 RETURNING id, name, birth_date, relationship`,
  )
    .bind(before.id, user.id, body.name ?? null, body.birthDate ?? null, body.relationship ?? null)
    .first<DependantRow>();
  if (!row) throw new HttpError(404, 'No such person in your family');
  return json({ acknowledged: true, dependant: toDependant(row) } satisfies v.InferOutput<typeof DependantSaved>);
}

/**
 * DELETE /api/users/me/dependants/:id: removes a person without visits on record; one with visits
 * stays (the clinic keeps their history), 409.
 */
export async function removeDependant(request: Request & Params, env: Env): Promise<Response> {
  const user = callerOf(request);
  const dependant = await ownDependant(env, user, request.params.id ?? '');
  const { meta } = await env.DB.prepare(
    `DELETE FROM users WHERE id = ?1 AND guardian_id = ?2
       AND NOT EXISTS (SELECT 1 FROM bookings WHERE user_id = ?1)`,
  )
    .bind(dependant.id, user.id)
    .run();
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

/** POST /api/bookings/family: books every member in one batch, or nothing (409 naming who does not fit). */
export async function bookFamilyVisit(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = await readJson(request, FamilyVisit);
  const members = await membersOf(env, user, body.members);
  const visits = await placeFamily(env, members, { ...body, phone: '' });
  return json(
    {
      acknowledged: true,
      insertedIds: visits.map((visit) => visit._id),
      visits,
      message: `Family visit booked: ${members.length} appointments`,
    } satisfies FamilyVisitBooked,
    201,
  );
}

/** GET /api/appointmentOptions/family?date=&members=<patientId>:<treatment>,…&arrangement=. */
export async function familyOptions(request: Request, env: Env): Promise<Response> {
  const caller = callerOf(request);
  const query = readQuery(request, FamilyOptionsQuery);
  // The front desk asks for an account's family; a patient only for their own.
  const user = query.accountId === undefined ? caller : await accountForDesk(env, caller, query.accountId);
  const members = query.members.split(',').map((part) => {
    const at = part.indexOf(':');
    if (at <= 0 || at === part.length - 1)
      throw new HttpError(400, 'members must be patientId:treatment, separated by commas');
    const patientId = part.slice(0, at).trim();
    return { patientId: patientId === 'me' ? user.id : patientId, treatment: part.slice(at + 1).trim() };
  });
  if (members.length < 2 || members.length > MAX_FAMILY_MEMBERS) {
    throw new HttpError(400, `a family visit has 2 to ${MAX_FAMILY_MEMBERS} members`);
  }
  await membersOf(env, user, members);
  return json((await familyFit(env, members, query.date, query.arrangement)) satisfies FamilyOptions);
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

/**
 * POST /api/users/me/dependants/:id/invite {email}: a dependant of 18 or more is invited to claim
 * their record. The record takes the address (unless another account has it), and a mail invites
 * them to sign up with it; a verified sign-up binds the record and takes it out of the family
 * (migration 0015), so the guardian no longer sees it.
 */
export async function inviteDependant(request: Request & Params, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const dependant = await ownDependant(env, user, request.params.id ?? '');
  const { email } = await readJson(request, RecordInvite);
  const adult = eighteenOn(dependant.birth_date);
  if (adult > clinicNow(env).date) {
    throw new HttpError(409, `${dependant.name} can have their own account from ${displayDate(adult)}, at 18`);
  }
  const now = clock();
  try {
    // The invitation first: the record takes the address only when the invitation is queued.
    const [queued] = await env.DB.batch([
      ...recordInvited(env, { dependantId: dependant.id, email, today: clinicNow(env, now).date }, now),
      inviteAddress(env.DB, dependant.id, user.id, email),
    ]);
    if ((queued?.meta.changes ?? 0) === 0) {
      throw new HttpError(
        429,
        `An invitation was sent today already (one a day for each person, ${INVITES_PER_ACCOUNT_PER_DAY} a day for a family); try again tomorrow`,
      );
    }
  } catch (error) {
    if (violates(error, USER_EMAIL)) {
      throw new HttpError(409, 'This address already has an account at the clinic; enter their own address');
    }
    throw error;
  }
  return json({
    acknowledged: true,
    message: `${dependant.name} is invited: once they sign up with ${email} and verify it, their record is theirs`,
  } satisfies v.InferOutput<typeof RecordInvited>);
}
