import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { NewWaitlistEntry, WaitlistJoined } from '../../../../../contract/messages.ts';
import { api } from '../../../lib/api.ts';
import { isMyWaitlistKey } from '../../../lib/cache-keys.ts';

/** POST /api/waitlist (signed in): wait for a treatment on a date (ISO) or range; 409 when already waiting or a time is free. */
export function joinWaitlist(entry: NewWaitlistEntry): Promise<WaitlistJoined> {
  return api<WaitlistJoined>('/waitlist', { method: 'POST', body: JSON.stringify(entry) });
}

/** Joins, then refreshes the patient's waitlist (My Appointments). */
export function useJoinWaitlist() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (entry: NewWaitlistEntry): Promise<WaitlistJoined> => {
      const result = await joinWaitlist(entry);
      void mutate(isMyWaitlistKey);
      return result;
    },
    [mutate],
  );
}
