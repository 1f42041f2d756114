/**
 * Family visits (issue 27): one booking per member, placed in one batch by the engine
 * (engine/family.ts); who may be a member is the family's rule (people/family.ts).
 */

import { type FamilyOptions, type FamilyVisitBooked, MAX_FAMILY_MEMBERS } from '../../../contract/family.ts';
import { callerOf, verifiedCallerOf } from '../people/auth.ts';
import { accountForDesk, membersOf } from '../people/family.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { placeFamily } from './engine/family.ts';
import { familyFit } from './family-fit.ts';

/** POST /api/bookings/family: books every member in one batch, or nothing (409 naming who does not fit). */
export async function bookFamilyVisit(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = inputOf(request, 'POST /bookings/family').body;
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
  const query = inputOf(request, 'GET /appointmentOptions/family').query;
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
