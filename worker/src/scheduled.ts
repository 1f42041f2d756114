import { releaseLapsedHolds } from './data/bookings.ts';
import { failLateFailingDemoRefunds } from './data/payments.ts';
import type { Env } from './env.ts';
import { refundFailureText } from './payments/provider.ts';
import { sendRefunds } from './payments/refunds.ts';

/**
 * The Cron Trigger's sweep: every unpaid booking whose hold ended by `now` is released (cancelled
 * with cancel_reason 'unpaid') and its claims freed, in one batch. `now` is the trigger's scheduled
 * time, so a late or retried run releases exactly what was due then. Answers how many were released.
 */
export async function releaseExpiredHolds(env: Env, now: Date): Promise<number> {
  const results = await env.DB.batch(releaseLapsedHolds(env.DB, now));
  return results.at(-1)?.meta.changes ?? 0;
}

/**
 * Refunds the sweep looks after: those the provider has not answered yet are asked again (same
 * idempotency key: the money goes back once), and the demo provider's refunds of its late-failing
 * test card fail, as Stripe's do some time after they succeeded. Answers how many were asked.
 */
export async function sweepRefunds(env: Env): Promise<number> {
  const asked = await sendRefunds(env, 'all');
  if (!env.STRIPE_SECRET_KEY)
    await failLateFailingDemoRefunds(env.DB, refundFailureText('expired_or_canceled_card')).run();
  return asked;
}

/** The Worker's `scheduled` handler (wrangler.toml [triggers]). */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  const released = await releaseExpiredHolds(env, new Date(controller.scheduledTime));
  // biome-ignore lint/suspicious/noConsole: the cron run's outcome is news, not a warning; Workers Logs record it.
  if (released > 0) console.log(`released ${released} unpaid booking(s) whose hold had ended`);
  const refunds = await sweepRefunds(env);
  // biome-ignore lint/suspicious/noConsole: as above.
  if (refunds > 0) console.log(`asked the payment provider for ${refunds} refund(s) it had not answered`);
}
