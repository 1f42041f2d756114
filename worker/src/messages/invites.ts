/** Inviting a grown-up dependant to an account of their own (migration 0015): a mail and the address, in one batch. */

import type * as v from 'valibot';
import { INVITES_PER_ACCOUNT_PER_DAY, type RecordInvited } from '../../../contract/family.ts';
import { callerOf } from '../people/auth.ts';
import { inviteAddress, USER_EMAIL } from '../people/data/users.ts';
import { eighteenOn, ownDependant } from '../people/family.ts';
import { clinicNow, displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { recordInvited } from './messages.ts';

/**
 * POST /api/users/me/dependants/:id/invite {email}: a dependant of 18 or more is invited to claim
 * their record. The record takes the address (unless another account has it), and a mail invites
 * them to sign up with it; a verified sign-up binds the record and takes it out of the family
 * (migration 0015), so the guardian no longer sees it.
 */
export async function inviteDependant(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const input = inputOf(request, 'POST /users/me/dependants/:id/invite');
  const dependant = await ownDependant(env, user, input.params.id);
  const { email } = input.body;
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
