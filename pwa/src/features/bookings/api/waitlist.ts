import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { WaitlistEntry, WaitlistLeft } from '../../../../../contract/messages.ts';
import { api } from '../../../lib/api.ts';
import { isMyWaitlistKey, type MyWaitlistKey, myWaitlistKey } from '../../../lib/cache-keys.ts';

export type { WaitlistEntry };

/** GET /api/waitlist (signed in): the patient's entries still waiting, with any offer open for them. */
export function useMyWaitlist(email: string | null | undefined) {
  return useSWR<WaitlistEntry[], unknown, MyWaitlistKey | null>(email ? myWaitlistKey(email) : null, () =>
    api<WaitlistEntry[]>('/waitlist'),
  );
}

/** DELETE /api/waitlist/:id: leaves the line (a time held for the patient goes to the next), then reloads the list. */
export function useLeaveWaitlist() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (entry: { _id: string }): Promise<WaitlistLeft> => {
      try {
        return await api<WaitlistLeft>(`/waitlist/${encodeURIComponent(entry._id)}`, { method: 'DELETE' });
      } finally {
        await mutate(isMyWaitlistKey);
      }
    },
    [mutate],
  );
}
