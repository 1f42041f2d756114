import { type CancellationPolicy, PolicyChange, type PolicySaved } from '../../contract/policy.ts';
import { requireAdmin } from './auth.ts';
import { readFreeCancellationHours, setFreeCancellationHours } from './data/cancellation-policy.ts';
import type { Env } from './env.ts';
import { json, readJson } from './http.ts';

/** GET /api/clinic/policy (anyone): until how many hours before the start a paid booking is cancelled online and refunded. */
export async function getPolicy(_request: Request, env: Env): Promise<Response> {
  return json({ freeCancellationHours: await readFreeCancellationHours(env.DB) } satisfies CancellationPolicy);
}

/** PUT /api/clinic/policy (admin). */
export async function setPolicy(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { freeCancellationHours } = await readJson(request, PolicyChange);
  await setFreeCancellationHours(env.DB, freeCancellationHours).run();
  return json({
    acknowledged: true,
    message: 'Cancellation policy saved',
    freeCancellationHours,
  } satisfies PolicySaved);
}

/** What a patient is told when a paid booking is inside the window: only the clinic cancels it now. */
export function insideWindowMessage(hours: number): string {
  const until = hours === 0 ? 'until it starts' : `until ${hours} hour${hours === 1 ? '' : 's'} before it starts`;
  return `A paid appointment can be cancelled online ${until}; please call the clinic to cancel this one`;
}
