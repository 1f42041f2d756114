import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { PolicyChange, PolicySaved } from '../../../../../contract/policy.ts';
import type { BookingRules } from '../../../lib/booking-rules.ts';
import { POLICY_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

/** PUT /api/clinic/policy (admin), then the policy everyone reads is the new one. */
export function useSavePolicy() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (change: PolicyChange): Promise<PolicySaved> => {
      const saved = await client('PUT /clinic/policy', { body: change });
      await mutate<BookingRules>(
        POLICY_KEY,
        (rules) =>
          rules && {
            ...rules,
            freeCancellationHours: saved.freeCancellationHours,
            rescheduleCutoffHours: saved.rescheduleCutoffHours,
            noShowFee: saved.noShowFee,
            lateCancelFee: saved.lateCancelFee,
          },
        { revalidate: false },
      );
      return saved;
    },
    [mutate],
  );
}
