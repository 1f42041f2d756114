import useSWR from 'swr';
import type { IntentRequest, PaymentIntentAnswer } from '../../../../../contract/payments.ts';
import { api } from '../../../lib/api.ts';

export type { PaymentIntentAnswer };

/** POST /api/create-payment-intent (the booking's owner): the amount is the booking's, never the browser's. */
export function createPaymentIntent(bookingId: string): Promise<PaymentIntentAnswer> {
  return api<PaymentIntentAnswer>('/create-payment-intent', { method: 'POST', body: JSON.stringify({ bookingId } satisfies IntentRequest) });
}

/**
 * The client secret for `bookingId`, fetched once when the payment form shows (null: do not fetch).
 * Asking again answers the same intent, so a repeat is harmless; it is still not refetched on focus.
 */
export function usePaymentIntent(bookingId: string | null) {
  return useSWR<PaymentIntentAnswer>(
    bookingId ? ['/create-payment-intent', bookingId] : null,
    ([, id]: [string, string]) => createPaymentIntent(id),
    { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false },
  );
}
