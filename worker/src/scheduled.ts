import type { Env } from './env.ts';
import { heldPastItsEnd } from './holds.ts';

/**
 * The Cron Trigger's sweep: every unpaid booking whose hold ended by `now` is released (cancelled
 * with cancel_reason 'unpaid'), which frees its slot. `now` is the trigger's scheduled time, so a
 * late or retried run releases exactly what was due then. Answers how many were released.
 */
export async function releaseExpiredHolds(env: Env, now: Date): Promise<number> {
  const at = now.toISOString();
  const { meta } = await env.DB.prepare(
    `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?1
     WHERE b.status = 'active' AND b.hold_until IS NOT NULL AND ${heldPastItsEnd('b', '?1')}`,
  )
    .bind(at)
    .run();
  return meta.changes;
}

/** The Worker's `scheduled` handler (wrangler.toml [triggers]). */
export async function scheduled(controller: ScheduledController, env: Env): Promise<void> {
  const released = await releaseExpiredHolds(env, new Date(controller.scheduledTime));
  if (released > 0) console.log(`released ${released} unpaid booking(s) whose hold had ended`);
}
