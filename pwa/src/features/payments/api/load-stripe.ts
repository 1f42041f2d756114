import type { Stripe } from '@stripe/stripe-js';

/**
 * Stripe.js, loaded from js.stripe.com only when a payment page needs it: the dynamic import keeps
 * Stripe's loader (which injects its script as soon as it is imported) out of every other chunk.
 */
export async function loadStripeJs(publishableKey: string): Promise<Stripe | null> {
  const { loadStripe } = await import('@stripe/stripe-js');
  return loadStripe(publishableKey);
}
