import type { Stripe } from '@stripe/stripe-js';
import { useState } from 'react';
import { PaymentError } from '../../../components/payment-form-parts.tsx';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { loadStripeJs } from '../api/load-stripe.ts';
import { StripeCheckoutForm, type StripeCheckoutFormProps } from './stripe-checkout-form.tsx';

type StripeCheckoutProps = Omit<StripeCheckoutFormProps, 'stripe'> & { publishableKey: string };

/**
 * Loads Stripe.js for this page (the only chunk that reaches Stripe) and shows its card form.
 * Stripe.js comes from js.stripe.com, so a failure to load it is said on the page.
 */
export function StripeCheckout({ publishableKey, ...form }: StripeCheckoutProps) {
  const [loadError, setLoadError] = useState<string | null>(null);
  const [stripe] = useState<Promise<Stripe | null>>(() =>
    loadStripeJs(publishableKey).catch((cause: unknown) => {
      logUnexpected(cause);
      setLoadError(`The card form could not load (${errorText(cause)}). Check your connection and reload the page.`);
      return null;
    }),
  );
  if (loadError) return <PaymentError message={loadError} />;
  return <StripeCheckoutForm stripe={stripe} {...form} />;
}
