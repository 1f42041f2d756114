import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent, StripeCardElementOptions } from '@stripe/stripe-js';
import { type SubmitEvent, useId, useState } from 'react';
import { errorText } from '../../../lib/error-text.ts';
import { PayButton, PaymentError } from './payment-form-parts.tsx';

export type StripeCheckoutFormProps = {
  /** Stripe.js (or a promise of it) as `<Elements>` takes it; tests hand in a fake Stripe object. */
  stripe: Stripe | Promise<Stripe | null> | null;
  clientSecret: string | null;
  billing: { name: string; email: string };
  online: boolean;
  /** Called once Stripe says the payment succeeded, with the PaymentIntent id. */
  onConfirmed(transactionId: string): void;
};

// The card element is an iframe: it cannot read the page's CSS, so it gets the same colours here.
const CARD_OPTIONS: StripeCardElementOptions = {
  style: {
    base: {
      color: '#1e293b',
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      fontSize: '16px',
      '::placeholder': { color: '#64748b' },
    },
    invalid: { color: '#991b1b', iconColor: '#991b1b' },
  },
};

/** docs/product.md#payment with Stripe: the Stripe card element, confirmed with the client secret. */
export function StripeCheckoutForm({ stripe, ...form }: StripeCheckoutFormProps) {
  return (
    <Elements stripe={stripe}>
      <StripeCardForm {...form} />
    </Elements>
  );
}

function StripeCardForm({ clientSecret, billing, online, onConfirmed }: Omit<StripeCheckoutFormProps, 'stripe'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [cardReady, setCardReady] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const id = useId();

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !clientSecret || processing || !online) return;
    setProcessing(true);
    setCardError(null);
    try {
      const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: billing },
      });
      // A second confirmation of an intent that already succeeded (say, a lost answer) is still a success.
      const succeeded = paymentIntent ?? (error?.payment_intent?.status === 'succeeded' ? error.payment_intent : null);
      if (succeeded?.status === 'succeeded') {
        onConfirmed(succeeded.id);
        return;
      }
      setCardError(
        error
          ? (error.message ?? 'Your card could not be charged.')
          : `The payment did not complete (${succeeded?.status ?? 'unknown'}). Please try again.`,
      );
    } catch (cause) {
      setCardError(errorText(cause));
    }
    setProcessing(false);
  }

  function handleChange(event: StripeCardElementChangeEvent) {
    setCardError(event.error?.message ?? null);
  }

  const ready = Boolean(stripe && elements) && cardReady;
  return (
    <form className="payment__form" onSubmit={handleSubmit}>
      <div className="field">
        {/* Stripe focuses its element when a label points at the element's container. */}
        <label id={`${id}-label`} htmlFor={`${id}-card`}>
          Card details
        </label>
        {/* biome-ignore lint/a11y/useSemanticElements: Stripe mounts its iframe in a plain box; a fieldset brings a border and min-width: min-content that break the 320 px layout. */}
        <div role="group" aria-labelledby={`${id}-label`} aria-busy={!ready || undefined}>
          <CardElement
            id={`${id}-card`}
            className="payment__card-element"
            options={CARD_OPTIONS}
            onReady={() => setCardReady(true)}
            onChange={handleChange}
          />
        </div>
      </div>
      <PaymentError message={cardError} />
      <PayButton disabled={!ready || !clientSecret || processing || !online} busy={processing} />
    </form>
  );
}
