import { releaseLapsedHolds } from './data/bookings.ts';
import type { Env } from './env.ts';

/**
 * The Cron Trigger's sweep: every unpaid booking whose hold ended by `now` is released (cancelled
 * with cancel_reason 'unpaid') and its claims freed, in one batch. `now` is the trigger's scheduled
 * time, so a late or retried run releases exactly what was due then. Answers how many were released.
 */
export async function releaseExpiredHolds(env: Env, now: Date): Promise<number> {
  const results = await env.DB.batch(releaseLapsedHolds(env.DB, now));
  return results.at(-1)?.meta.changes ?? 0;
}

/** The Worker's `scheduled` handler (wrangler.toml [triggers]). */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  const released = await releaseExpiredHolds(env, new Date(controller.scheduledTime));
  // biome-ignore lint/suspicious/noConsole: the cron run's outcome is news, not a warning; Workers Logs record it.
  if (released > 0) console.log(`released ${released} unpaid booking(s) whose hold had ended`);
}
