import useSWR from 'swr';
import type { RefundDue } from '../../../../../contract/payments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { REFUNDS_KEY } from '../../../lib/cache-keys.ts';

export type { RefundDue };

/** GET /api/refunds (admin): payments flagged for a refund, oldest first. */
export function useRefundsDue() {
  return useSWR<RefundDue[]>(REFUNDS_KEY, apiFetcher<RefundDue[]>);
}
