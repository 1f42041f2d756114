import useSWR from 'swr';
import type { CancellationPolicy } from '../../../../../contract/policy.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { POLICY_KEY } from '../../../lib/cache-keys.ts';

/**
 * GET /api/clinic/policy: until how many hours before the start a paid booking is cancelled online
 * and refunded, and a booking rescheduled online.
 */
export function useCancellationPolicy() {
  return useSWR<CancellationPolicy>(POLICY_KEY, apiFetcher<CancellationPolicy>);
}
