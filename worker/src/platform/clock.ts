import { AsyncLocalStorage } from 'node:async_hooks';
import type { Env } from './env.ts';

/**
 * The clinic's clock: what "now" is for bookings, holds, reminders and everything else the product
 * computes from the time. It is the real time, except in a local test stack (ALLOW_TEST_CLOCK, which
 * a deploy refuses), where a browser test may pin it for its own requests with an `X-Test-Clock`
 * header (an ISO instant), as it pins the browser's clock: the date-dependent journeys then run at
 * month ends, the year's end and the clocks' changes on any day of the year. Tokens and signatures
 * always use the real time.
 */
const pinned = new AsyncLocalStorage<number>();

export const clock = (): Date => new Date(pinned.getStore() ?? Date.now());

/** Runs `handle` with the request's pinned time, where the stack allows pinning and the request asks. */
export function withRequestClock<T>(request: Request, env: Env, handle: () => T): T {
  const header = env.ALLOW_TEST_CLOCK === 'true' ? request.headers.get('X-Test-Clock') : null;
  const at = header === null ? Number.NaN : Date.parse(header);
  return Number.isNaN(at) ? handle() : pinned.run(at, handle);
}
