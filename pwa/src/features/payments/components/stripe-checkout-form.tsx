import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe, StripePaymentElementOptions } from '@stripe/stripe-js';
import { type SubmitEvent, useId, useState } from 'react';
import { PayButton, PaymentError } from '../../../components/payment-form-parts.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';

export type StripeCheckoutFormProps = {
  /** Stripe.js (or a promise of it) as `<Elements>` takes it; tests hand in a fake Stripe object. */
  stripe: Stripe | Promise<Stripe | null> | null;
  clientSecret: string;
  billing: { name: string; email: string };
  /** Where Stripe brings the patient back after a payment method that leaves the page (a bank, a wallet). */
  returnUrl: string;
  /** What the payment charges, in dollars (on the Pay button). */
  amount: number;
  online: boolean;
  /** Called once Stripe says the payment succeeded, with the PaymentIntent id (the SetupIntent's, saving a card). */
  onConfirmed(transactionId: string): void;
  /** Saving a card for later (a SetupIntent's secret): nothing is charged. */
  setup?: boolean;
};

// The Payment Element is an iframe: it cannot read the page's CSS, so it gets the same colours here.
const APPEARANCE: Appearance = {
  theme: 'stripe',
  variables: {
    colorPrimary: '#115e59',
    colorText: '#1e293b',
    colorDanger: '#991b1b',
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    fontSizeBase: '16px',
    borderRadius: '10px',
  },
};

// The patient's name and email are known: Stripe does not ask for them again, they are sent with the payment.
const ELEMENT_OPTIONS: StripePaymentElementOptions = {
  layout: 'tabs',
  fields: { billingDetails: { name: 'never', email: 'never' } },
};

/**
 * docs/product-payments.md#payment with Stripe: Stripe's Payment Element (cards, wallets and the methods
 * Stripe recommends), confirmed with the PaymentIntent's client secret.
 */
export function StripeCheckoutForm({ stripe, clientSecret, ...form }: StripeCheckoutFormProps) {
  // Stripe's own words (its field labels, a decline) in the page's language.
  const { language } = useLanguage();
  return (
    <Elements key={clientSecret} stripe={stripe} options={{ clientSecret, appearance: APPEARANCE, locale: language }}>
      <StripePaymentForm {...form} />
    </Elements>
  );
}

function StripePaymentForm({
  billing,
  returnUrl,
  amount,
  online,
  onConfirmed,
  setup = false,
}: Omit<StripeCheckoutFormProps, 'stripe' | 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [formReady, setFormReady] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const id = useId();
  const t = useLanguage().t;

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || !formReady || processing || !online) return;
    setProcessing(true);
    setPayError(null);
    try {
      if (setup) {
        const { error, setupIntent } = await stripe.confirmSetup({
          elements,
          confirmParams: { return_url: returnUrl, payment_method_data: { billing_details: billing } },
          redirect: 'if_required',
        });
        if (setupIntent?.status === 'succeeded') {
          onConfirmed(setupIntent.id);
          return;
        }
        setPayError(error?.message ?? t('stripe.notSaved'));
        setProcessing(false);
        return;
      }
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: returnUrl, payment_method_data: { billing_details: billing } },
        // Cards and wallets complete here; a method that must leave the page comes back to returnUrl.
        redirect: 'if_required',
      });
      // A second confirmation of an intent that already succeeded (say, a lost answer) is still a success.
      const succeeded = paymentIntent ?? (error?.payment_intent?.status === 'succeeded' ? error.payment_intent : null);
      if (succeeded?.status === 'succeeded') {
        onConfirmed(succeeded.id);
        return;
      }
      setPayError(
        error
          ? (error.message ?? t('stripe.notCompleted'))
          : t('card.notComplete', { status: succeeded?.status ?? 'unknown' }),
      );
    } catch (cause) {
      setPayError(errorText(cause, t));
    }
    setProcessing(false);
  }

  const ready = Boolean(stripe && elements) && formReady;
  return (
    <form className="payment__form" onSubmit={handleSubmit}>
      <div className="field">
        <span id={`${id}-label`} className="payment__element-label">
          {t('stripe.details')}
        </span>
        {/* biome-ignore lint/a11y/useSemanticElements: Stripe mounts its iframe in a plain box; a fieldset brings a border and min-width: min-content that break the 320 px layout. */}
        <div role="group" aria-labelledby={`${id}-label`} aria-busy={!ready || undefined}>
          <PaymentElement
            id={`${id}-payment`}
            className="payment__element"
            options={ELEMENT_OPTIONS}
            onReady={() => setFormReady(true)}
          />
        </div>
      </div>
      <PaymentError message={payError} />
      <PayButton amount={setup ? null : amount} disabled={!ready || processing || !online} busy={processing} />
    </form>
  );
}
