import useSWR from 'swr';
import type { RefundDue, RefundHandedBack } from '../../../../../contract/payments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { REFUNDS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { RefundDue };

/** GET /api/refunds (admin): payments flagged for a refund, oldest first. */
export function useRefundsDue() {
  return useSWR<RefundDue[]>(REFUNDS_KEY, apiFetcher<RefundDue[]>);
}

/** POST /api/refunds/:id/handed-back (admin): a desk payment's refund was given back at the desk. */
export function markHandedBack(paymentId: string): Promise<RefundHandedBack> {
  return client('POST /refunds/:id/handed-back', { params: { id: paymentId } });
}
