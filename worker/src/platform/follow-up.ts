import { offerFreedTimes } from '../booking/engine.ts';
import { deliverMail } from '../messages/mail-outbox.ts';
import { takeFollowUps } from '../messages/messages.ts';
import { clock } from './clock.ts';
import type { Env } from './env.ts';

/**
 * After a request is answered: offers the time it freed to the waitlist and sends the mail it
 * queued, so patients hear at once. Nothing here can fail the request; what does not happen now
 * the Cron Trigger does within five minutes. `requestEnv` is the env the handlers were given.
 */
export function runFollowUps(requestEnv: Env, env: Env, ctx: ExecutionContext): void {
  const work = takeFollowUps(requestEnv);
  if (work.size === 0) return;
  ctx.waitUntil(
    (async () => {
      if (work.has('waitlist')) await offerFreedTimes(env, clock());
      await deliverMail(env, clock());
    })().catch((error: unknown) => console.error('follow-up after the answer failed', error)),
  );
}
