import useSWR from 'swr';
import type { WaitlistEntry, WaitlistLeft } from '../../../../../contract/messages.ts';
import { type MyWaitlistKey, myWaitlistKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { WaitlistEntry };

/** GET /api/waitlist (signed in): the patient's entries still waiting, with any offer open for them. */
export function useMyWaitlist(email: string | null | undefined) {
  return useSWR<WaitlistEntry[], unknown, MyWaitlistKey | null>(email ? myWaitlistKey(email) : null, () =>
    client('GET /waitlist'),
  );
}

/** DELETE /api/waitlist/:id: leaves the line (a time held for the patient goes to the next). */
export function leaveWaitlist(entry: { _id: string }): Promise<WaitlistLeft> {
  return client('DELETE /waitlist/:id', { params: { id: entry._id } });
}
