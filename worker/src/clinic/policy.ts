import type { BookingRules, PolicySaved } from '../../../contract/policy.ts';
import { holdRules } from '../booking/holds.ts';
import { callerOf } from '../people/auth.ts';
import { auditEntry, changesAnything, definedOnly, type Fields } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { readPolicy, savePolicy } from './data/cancellation-policy.ts';

/**
 * GET /api/clinic/policy (anyone): until when a paid booking is cancelled online and refunded, a
 * booking rescheduled online, and how long an unpaid one holds its time.
 */
export async function getPolicy(_request: Request, env: Env): Promise<Response> {
  const { hoursAfterBooking, hoursBeforeStart } = holdRules(env);
  return json({
    ...(await readPolicy(env.DB)),
    unpaidHoldHours: hoursAfterBooking,
    unpaidHoldHoursBeforeStart: hoursBeforeStart,
  } satisfies BookingRules);
}

/** PUT /api/clinic/policy (admin): the fields sent change, with their audit row in the same batch when any did. */
export async function setPolicy(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const change = inputOf(request, 'PUT /clinic/policy').body;
  const before: Fields = { ...(await readPolicy(env.DB)) };
  const after: Fields = { ...before, ...definedOnly(change) };
  await env.DB.batch([
    savePolicy(env.DB, change),
    ...(changesAnything(before, after)
      ? [
          auditEntry(env.DB, {
            actor: admin,
            action: 'clinic.policy_changed',
            target: { type: 'clinic', id: 'policy', name: 'Cancellation and reschedule policy' },
            before,
            after,
          }),
        ]
      : []),
  ]);
  return json({
    acknowledged: true,
    message: 'Cancellation policy saved',
    ...(await readPolicy(env.DB)),
  } satisfies PolicySaved);
}
