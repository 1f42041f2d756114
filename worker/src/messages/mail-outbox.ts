import { isNoEmailAddress } from '../people/data/users.ts';
import type { Env } from '../platform/env.ts';
import { messageSettings } from './data/message-settings.ts';
import {
  claimDueMail,
  type MailData,
  markMailDropped,
  markMailFailed,
  markMailSent,
  type OutboxRow,
} from './data/outbox.ts';
import { renderMail } from './mail-templates.ts';

/** How long a sender holds the mails it claimed; a sender that died is taken over after this. */
export const MAIL_LEASE_MS = 4 * 60_000;
/** A mail is tried this many times (the retries 5, 10, 20 … minutes apart, at most 6 hours), then given up. */
export const MAX_MAIL_ATTEMPTS = 8;
const BATCH = 25;

/** When to try a mail again after its `attempts`-th failure. */
export function retryAt(now: Date, attempts: number): Date {
  const minutes = Math.min(5 * 2 ** Math.max(0, attempts - 1), 6 * 60);
  return new Date(now.getTime() + minutes * 60_000);
}

/**
 * Sends the mails due at `now`: claims them (no other sender gets them while this one holds
 * them), sends each through the send_email binding and marks it sent; a failure is retried later
 * with backoff. A reminder whose booking was cancelled or moved since it was queued is dropped.
 * Answers how many were sent and how many failed.
 */
export async function deliverMail(env: Env, now: Date): Promise<{ sent: number; failed: number }> {
  const token = crypto.randomUUID();
  const { results } = await claimDueMail(env.DB, token, now, MAIL_LEASE_MS, BATCH).all<OutboxRow>();
  if (results.length === 0) return { sent: 0, failed: 0 };
  const settings = await messageSettings(env.DB);
  const from = { name: settings.clinic_name, email: env.MAIL_FROM };
  let sent = 0;
  let failed = 0;
  for (const row of results) {
    if (row.stale) {
      await markMailDropped(env.DB, row.id, token, 'the booking was cancelled or moved').run();
      continue;
    }
    // A patient the desk booked without an email, or one erased: an .invalid address receives nothing.
    if (isNoEmailAddress(row.recipient)) {
      await markMailDropped(env.DB, row.id, token, 'the patient has no email address').run();
      continue;
    }
    try {
      const content = renderMail(env, row.kind, JSON.parse(row.data) as MailData, settings, now);
      await env.MAILER.send({ from, to: row.recipient, ...content });
    } catch (cause) {
      failed += 1;
      console.error('mail failed', row.kind, row.id, cause);
      const error = cause instanceof Error ? cause.message : String(cause);
      await markMailFailed(env.DB, row.id, token, {
        error,
        retryAt: retryAt(now, row.attempts),
        maxAttempts: MAX_MAIL_ATTEMPTS,
      }).run();
      continue;
    }
    sent += 1;
    await markMailSent(env.DB, row.id, token, now).run();
  }
  return { sent, failed };
}
