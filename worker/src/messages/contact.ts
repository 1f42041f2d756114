import type { ContactMessage, ContactReceived } from '../../../contract/contact.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, idempotencyKey, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { clientAddress, spend } from '../platform/rate-limit.ts';
import {
  claimMailing,
  contactMessageByKey,
  insertContactMessage,
  markMailed,
  releaseMailingClaim,
  type StoredMessage,
} from './data/contact.ts';

/** A claim older than this is taken to belong to a request that died mid-send. */
const CLAIM_TIMEOUT = '-2 minutes';

/**
 * POST /api/contact: stores the message and mails it to the clinic's inbox. The client's
 * Idempotency-Key makes a retry (a lost answer, the offline outbox) store and mail nothing twice.
 */
export async function postContact(request: Request, env: Env): Promise<Response> {
  await spend(env.CONTACT_LIMITER, clientAddress(request), 'messages');
  // Anyone may write: the key is scoped to the message itself (a replay with another message is a 409).
  const key = idempotencyKey(request, { required: true }) ?? '';
  const message = inputOf(request, 'POST /contact').body;

  const inserted = await insertContactMessage(env.DB, crypto.randomUUID(), key, message).first<StoredMessage>();
  const stored = inserted ?? (await contactMessageByKey(env.DB, key));
  if (!stored) throw new Error('contact message vanished after insert');
  if (!inserted && !sameMessage(stored, message)) {
    throw new HttpError(409, 'This Idempotency-Key was already used for a different message');
  }

  if (!stored.mailed_at) await mailOnce(env, stored);
  return json({ acknowledged: true, insertedId: stored.id } satisfies ContactReceived, inserted ? 201 : 200);
}

function sameMessage(a: ContactMessage, b: ContactMessage): boolean {
  return (
    a.user_name === b.user_name && a.user_email === b.user_email && a.subject === b.subject && a.message === b.message
  );
}

async function mailOnce(env: Env, stored: StoredMessage): Promise<void> {
  // Only the request that wins this claim mails; a concurrent replay finds it taken.
  const claim = await claimMailing(env.DB, stored.id, CLAIM_TIMEOUT).first();
  if (!claim) return;
  try {
    await env.MAILER.send(contactMail(env, stored));
  } catch (cause) {
    await releaseMailingClaim(env.DB, stored.id).run();
    console.error('contact mail failed', cause);
    throw new HttpError(502, 'Your message was saved but could not be mailed yet; please try again');
  }
  await markMailed(env.DB, stored.id).run();
}

/**
 * The mail to the clinic's inbox. Its headers are built only from header-safe text, whatever is
 * stored (input validation refuses control characters; this holds even for rows stored before).
 */
export function contactMail(env: Env, stored: ContactMessage): EmailMessageBuilder {
  const name = headerText(stored.user_name, 100);
  const address = headerText(stored.user_email, 254);
  return {
    from: { name: 'Clinic website', email: env.MAIL_FROM },
    to: env.CLINIC_INBOX,
    // A reply goes to the sender only when their address is a plain, valid one.
    ...(EMAIL.test(address) ? { replyTo: { name, email: address } } : {}),
    subject: `[Contact] ${headerText(stored.subject, 150)}`,
    text: `From: ${name} <${address}>\n\n${stored.message}\n`,
  };
}

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/** One line: every control character or line separator becomes a space; quotes and angle brackets go. */
function headerText(value: string, max: number): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/["<>]/g, '')
    .trim()
    .slice(0, max);
}
