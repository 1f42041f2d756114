import type { ContactMessage } from '../../../../../contract/contact.ts';
import { client } from '../../../lib/client.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { ContactMessage };

/** The Worker's limits for POST /api/contact, mirrored by the form's maxLength attributes. */
export const CONTACT_LIMITS = { user_name: 100, user_email: 254, subject: 150, message: 5000 } as const;

export const CONTACT_PATH = pathOf('POST /contact');

/** 'sent': the server has it. 'queued': it waits in this device's outbox and is sent when the network is back. */
export type ContactDelivery = 'sent' | 'queued';

const fieldsOf = ({ user_name, user_email, subject, message }: ContactMessage): ContactMessage => ({
  user_name,
  user_email,
  subject,
  message,
});

/** Puts the message in the outbox (IndexedDB, loaded only now) under its Idempotency-Key, after one failed attempt. */
async function queueContactMessage(message: ContactMessage, key: string) {
  const { sharedOutbox } = await import('../../../lib/outbox.ts');
  await sharedOutbox().enqueue({
    key,
    path: CONTACT_PATH,
    body: JSON.stringify(fieldsOf(message)),
    label: message.subject,
    failedAttempts: 1,
  });
}

/**
 * POST /api/contact. The Idempotency-Key lets the Worker store and mail a retried message only once.
 * When the request fails on the network (offline), the message is queued with the same key
 * instead ('queued'). Resolves 'sent' on 2xx; throws ApiError on any other answer, or when the
 * message could not even be queued.
 */
export async function sendContactMessage(
  message: ContactMessage,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<ContactDelivery> {
  // Always tried, whatever navigator.onLine says (it reads false on some machines that are online).
  try {
    await client('POST /contact', { headers: { 'Idempotency-Key': idempotencyKey }, body: fieldsOf(message) });
    return 'sent';
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    await queueContactMessage(message, idempotencyKey);
    return 'queued';
  }
}
