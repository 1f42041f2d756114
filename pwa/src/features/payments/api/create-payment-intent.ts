import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CardProvider, PaymentIntentAnswer } from '../../../../../contract/payments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { CARD_PROVIDER_PATH } from '../../../lib/api-paths.ts';
import { bookingKey, isMyBookingsKey, type PaymentIntentKey, paymentIntentKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { ApiError } from '../../../lib/http.ts';

export type { PaymentIntentAnswer };

/** What one payment pays: a booking, or a family visit's unpaid bookings together. */
export type PayFor = { bookingId: string } | { familyVisitId: string };

/** Fetched once while the page is open: neither on focus nor on reconnection, nor again when stale. */
const ONCE = { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false } as const;

const intentKeyOf = (payFor: PayFor) =>
  paymentIntentKey('familyVisitId' in payFor ? `family:${payFor.familyVisitId}` : payFor.bookingId);

/** POST /api/create-payment-intent (the booking's or fee's owner): the amount is the Worker's, never the browser's. */
export function createPaymentIntent(payFor: PayFor | { feeId: string }): Promise<PaymentIntentAnswer> {
  return client('POST /create-payment-intent', { body: payFor });
}

/**
 * The client secret for `payFor`, fetched once when the payment form shows (null: do not fetch).
 * Asking again answers the same intent, so a repeat is harmless; it is still not refetched on focus.
 * A 409 says it was paid meanwhile (another tab, a webhook): the booking (and My Appointments) are
 * reloaded, and show as paid.
 */
export function usePaymentIntent(payFor: PayFor | null, bookingId: string) {
  const { mutate } = useSWRConfig();
  const intent = useSWR<PaymentIntentAnswer, unknown, PaymentIntentKey | null>(
    payFor ? intentKeyOf(payFor) : null,
    () => createPaymentIntent(payFor as PayFor),
    ONCE,
  );
  const { error } = intent;
  useEffect(() => {
    if (error instanceof ApiError && error.status === 409) {
      const booking = bookingKey(bookingId);
      void mutate((key) => key === booking || isMyBookingsKey(key));
    }
  }, [error, bookingId, mutate]);
  return intent;
}

/**
 * GET /api/payments/provider: which provider's card form to draw while the intent is made (the payment page is
 * rendered with it, so its form paints with the page); it does not change while the page is open.
 */
export function useCardProvider() {
  return useSWR<CardProvider>(CARD_PROVIDER_PATH, apiFetcher<CardProvider>, ONCE);
}
