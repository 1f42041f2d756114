import useSWR from 'swr';
import type { WaitlistEntry, WaitlistLeft } from '../../../../../contract/messages.ts';
import { api } from '../../../lib/api.ts';
import { type MyWaitlistKey, myWaitlistKey } from '../../../lib/cache-keys.ts';

export type { WaitlistEntry };

/** GET /api/waitlist (signed in): the patient's entries still waiting, with any offer open for them. */
export function useMyWaitlist(email: string | null | undefined) {
  return useSWR<WaitlistEntry[], unknown, MyWaitlistKey | null>(email ? myWaitlistKey(email) : null, () =>
    api<WaitlistEntry[]>('/waitlist'),
  );
}

/** DELETE /api/waitlist/:id: leaves the line (a time held for the patient goes to the next). */
export function leaveWaitlist(entry: { _id: string }): Promise<WaitlistLeft> {
  return api<WaitlistLeft>(`/waitlist/${encodeURIComponent(entry._id)}`, { method: 'DELETE' });
}
