import useSWR from 'swr';
import type { Receipt } from '../../../../../contract/payments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { receiptKey } from '../../../lib/cache-keys.ts';

export type { Receipt };

/** GET /api/bookings/:id/receipt (the owner or an admin): the payment and its refund (null id: do not fetch). */
export function useReceipt(bookingId: string | null) {
  return useSWR<Receipt>(bookingId ? receiptKey(bookingId) : null, apiFetcher<Receipt>);
}
