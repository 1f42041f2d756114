import type { NewWaitlistEntry, WaitlistJoined } from '../../../../../contract/messages.ts';
import { client } from '../../../lib/client.ts';

/** POST /api/waitlist (signed in): wait for a treatment on a date (ISO) or range; 409 when already waiting or a time is free. */
export function joinWaitlist(entry: NewWaitlistEntry): Promise<WaitlistJoined> {
  return client('POST /waitlist', { body: entry });
}
