import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { IntentRequest, PaymentIntentAnswer } from '../../../../../contract/payments.ts';
import { api } from '../../../lib/api.ts';
import { bookingKey, type PaymentIntentKey, paymentIntentKey } from '../../../lib/cache-keys.ts';
import { ApiError } from '../../../lib/http.ts';

export type { PaymentIntentAnswer };

/** POST /api/create-payment-intent (the booking's owner): the amount is the booking's, never the browser's. */
export function createPaymentIntent(bookingId: string): Promise<PaymentIntentAnswer> {
  return api<PaymentIntentAnswer>('/create-payment-intent', {
    method: 'POST',
    body: JSON.stringify({ bookingId } satisfies IntentRequest),
  });
}

/**
 * The client secret for `bookingId`, fetched once when the payment form shows (null: do not fetch).
 * Asking again answers the same intent, so a repeat is harmless; it is still not refetched on focus.
 * A 409 says the booking was paid meanwhile (another tab, a webhook): the booking is reloaded, and shows as paid.
 */
export function usePaymentIntent(bookingId: string | null) {
  const { mutate } = useSWRConfig();
  const intent = useSWR<PaymentIntentAnswer, unknown, PaymentIntentKey | null>(
    bookingId ? paymentIntentKey(bookingId) : null,
    ([, id]) => createPaymentIntent(id),
    { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false },
  );
  const { error } = intent;
  useEffect(() => {
    if (bookingId && error instanceof ApiError && error.status === 409) void mutate(bookingKey(bookingId));
  }, [error, bookingId, mutate]);
  return intent;
}
