import { releaseLapsed } from './booking/engine/cancel.ts';
import { offerFreedTimes } from './booking/engine/offers.ts';
import { refreshPublishedTimes } from './booking/publish.ts';
import { enqueueDueMail } from './messages/mail-outbox.ts';
import { queueDueRecalls } from './messages/recalls.ts';
import { queueDueReminders } from './messages/reminders.ts';
import { failLateDemoRefunds, sendRefunds } from './money/refunds.ts';
import type { Env } from './platform/env.ts';
import { relayEvents } from './platform/events.ts';

/**
 * Refunds the sweep looks after: those the provider has not answered yet are asked again (same
 * idempotency key: the money goes back once), and the demo provider's refunds of its late-failing
 * test card fail, as Stripe's do some time after they succeeded. Answers how many were asked.
 */
export async function sweepRefunds(env: Env): Promise<number> {
  const asked = await sendRefunds(env, 'all');
  if (!env.STRIPE_SECRET_KEY) await failLateDemoRefunds(env);
  return asked;
}

/**
 * One run of the Cron Trigger at `now`: release ended holds, queue due reminders and recall messages, ask again for
 * unanswered refunds, offer freed times to the waitlist, hand to the queue the events nobody handed over (a Worker
 * that died between its commit and the hand-over) and the messages that are due (mail and SMS). Each step runs
 * even when an earlier one failed.
 */
export async function runScheduled(env: Env, now: Date): Promise<void> {
  const steps: [string, () => Promise<unknown>][] = [
    [
      'release',
      async () => report('released {} unpaid booking(s) whose hold had ended', await releaseLapsed(env, now)),
    ],
    ['reminders', async () => report('queued {} reminder(s)', await queueDueReminders(env, now))],
    ['recalls', async () => report('queued {} recall message(s)', await queueDueRecalls(env, now))],
    [
      'refunds',
      async () => report('asked the payment provider for {} refund(s) it had not answered', await sweepRefunds(env)),
    ],
    ['waitlist', async () => report('offered {} freed time(s) to the waitlist', await offerFreedTimes(env, now))],
    [
      'relay',
      async () =>
        report('handed {} event(s) to the queue', await relayEvents(env, now, { limit: 10_000, stale: true })),
    ],
    ['mail', async () => report('handed {} due message(s) to the queue', await enqueueDueMail(env, now))],
    ['publish', async () => report('published {} slot(s)', await refreshPublishedTimes(env, now))],
  ];
  let failure: unknown = null;
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      console.error(`scheduled ${name} failed`, error);
      failure ??= error;
    }
  }
  if (failure) throw failure;
}

function report(text: string, n: number): void {
  // biome-ignore lint/suspicious/noConsole: the cron run's outcome is news, not a warning; Workers Logs record it.
  if (n > 0) console.log(text.replace('{}', String(n)));
}

/** The Worker's `scheduled` handler (wrangler.toml [triggers]): "now" is the event's scheduledTime. */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  await runScheduled(env, new Date(controller.scheduledTime));
}
