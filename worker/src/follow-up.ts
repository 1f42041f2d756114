import { enqueueDueMail } from './messages/mail-outbox.ts';
import { clock } from './platform/clock.ts';
import type { Env } from './platform/env.ts';
import { relayEvents } from './platform/events.ts';

/**
 * After a write that succeeded is answered: hands the events its batches
 * appended to the queue, and the messages now due (a contact message, an invitation) to their
 * senders. Nothing here can fail the request; what does not happen now the Cron Trigger's relay
 * does within five minutes.
 */
export function runFollowUps(request: Request, response: Response, env: Env, ctx: ExecutionContext): void {
  // A read, or a refusal, changed nothing: nothing to hand on.
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS' || !response.ok) return;
  ctx.waitUntil(
    (async () => {
      const now = clock();
      await relayEvents(env, now);
      await enqueueDueMail(env, now);
    })().catch((error: unknown) => console.error('handing events to the queue after the answer failed', error)),
  );
}
