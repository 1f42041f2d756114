import { api } from '../../../lib/api.ts';

export type ContactMessage = {
  user_name: string;
  user_email: string;
  subject: string;
  message: string;
};

/** The Worker's limits for POST /api/contact, mirrored by the form's maxLength attributes. */
export const CONTACT_LIMITS = { user_name: 100, user_email: 254, subject: 150, message: 5000 } as const;

/**
 * POST /api/contact. The Idempotency-Key lets the Worker store and mail a retried message only once.
 * Resolves on 2xx, throws ApiError otherwise.
 */
export async function sendContactMessage(
  message: ContactMessage,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<void> {
  const { user_name, user_email, subject } = message;
  await api<unknown>('/contact', {
    method: 'POST',
    headers: { 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({ user_name, user_email, subject, message: message.message }),
  });
}
