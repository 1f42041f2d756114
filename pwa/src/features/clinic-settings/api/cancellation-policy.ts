import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CancellationPolicy, PolicyChange, PolicySaved } from '../../../../../contract/policy.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { POLICY_KEY } from '../../../lib/cache-keys.ts';

/** GET /api/clinic/policy: the clinic's free cancellation window and reschedule cutoff. */
export function usePolicy() {
  return useSWR<CancellationPolicy>(POLICY_KEY, apiFetcher<CancellationPolicy>);
}

/** PUT /api/clinic/policy (admin), then the policy everyone reads is the new one. */
export function useSavePolicy() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (change: PolicyChange): Promise<PolicySaved> => {
      const saved = await api<PolicySaved>('/clinic/policy', { method: 'PUT', body: JSON.stringify(change) });
      await mutate(
        POLICY_KEY,
        {
          freeCancellationHours: saved.freeCancellationHours,
          rescheduleCutoffHours: saved.rescheduleCutoffHours,
        } satisfies CancellationPolicy,
        { revalidate: false },
      );
      return saved;
    },
    [mutate],
  );
}
