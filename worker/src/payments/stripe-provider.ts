import Stripe from 'stripe';
import type { Env } from '../env.ts';
import type { Intent, PaymentProvider } from './provider.ts';

export function stripeClient(secretKey: string): Stripe {
  // Built per request: workerd has no Node http, so Stripe talks through fetch.
  return new Stripe(secretKey, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 2 });
}

export function toIntent(intent: Stripe.PaymentIntent): Intent {
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    bookingId: intent.metadata?.bookingId,
    clientSecret: intent.client_secret ?? undefined,
  };
}

export function stripeProvider(_env: Env, secretKey: string): PaymentProvider {
  const stripe = stripeClient(secretKey);
  return {
    name: 'stripe',
    async intentFor(booking) {
      if (booking.paymentIntentId) {
        const existing = await stripe.paymentIntents.retrieve(booking.paymentIntentId);
        if (existing.amount === booking.priceCents && existing.status !== 'canceled') return toIntent(existing);
      }
      const intent = await stripe.paymentIntents.create(
        {
          amount: booking.priceCents,
          currency: 'usd',
          description: booking.treatment,
          receipt_email: booking.email,
          metadata: { bookingId: booking.id },
        },
        // A retried request (lost answer, double click) gets the same intent back from Stripe.
        { idempotencyKey: `booking-${booking.id}-${booking.priceCents}` },
      );
      return toIntent(intent);
    },
    async retrieve(intentId) {
      try {
        return toIntent(await stripe.paymentIntents.retrieve(intentId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },
  };
}
