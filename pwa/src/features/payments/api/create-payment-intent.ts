import useSWR from 'swr';
import { api } from '../../../lib/api.ts';

/** The Worker's answer: which provider takes the card, and the client secret it confirms with. */
export type PaymentIntentAnswer = {
  clientSecret: string;
  provider: 'stripe' | 'demo';
  publishableKey: string | null;
  amount: number;
  currency: string;
};

/** POST /api/create-payment-intent (the booking's owner): the amount is the booking's, never the browser's. */
export function createPaymentIntent(bookingId: string): Promise<PaymentIntentAnswer> {
  return api<PaymentIntentAnswer>('/create-payment-intent', { method: 'POST', body: JSON.stringify({ bookingId }) });
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
