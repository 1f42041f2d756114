import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { email, multilineText, text } from './fields.ts';

/** POST /api/contact, with an Idempotency-Key header: a retry with the same key stores and mails nothing twice. */
export const ContactMessage = v.object({
  user_name: text('user_name', 100),
  user_email: email('user_email'),
  subject: text('subject', 150),
  message: multilineText('message', 5000),
});
export type ContactMessage = v.InferInput<typeof ContactMessage>;

/** Stored (201), or already stored under this Idempotency-Key (200). */
export const ContactReceived = Inserted;
export type ContactReceived = Inserted;
