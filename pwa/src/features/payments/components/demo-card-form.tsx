import { type SubmitEvent, useId, useState } from 'react';
import { PayButton, PaymentError } from '../../../components/payment-form-parts.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useT } from '../../../lib/i18n.tsx';
import { confirmDemoSetup } from '../api/cards.ts';
import { confirmDemoPayment, parseDemoCard } from '../api/confirm-demo-payment.ts';

type DemoCardFormProps = {
  clientSecret: string | null;
  /** What the payment charges, in dollars (on the Pay button). */
  amount: number;
  online: boolean;
  /** Called once the provider says the payment (or the setup) succeeded, with its id. */
  onConfirmed(transactionId: string): void;
  /** Saving a card for later instead of paying: the button says "Save card", nothing is charged. */
  setup?: boolean;
};

/**
 * The card form of the demo provider (no Stripe keys configured): the Worker follows Stripe's test
 * cards, so the same declines and messages show as with Stripe, and no card is ever charged.
 */
export function DemoCardForm({ clientSecret, amount, online, onConfirmed, setup = false }: DemoCardFormProps) {
  const [processing, setProcessing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const id = useId();
  const noteId = `${id}-note`;
  const t = useT();

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!clientSecret || processing || !online) return;
    const fields = new FormData(event.currentTarget);
    const parsed = parseDemoCard(
      {
        number: String(fields.get('cardNumber') ?? ''),
        expiry: String(fields.get('cardExpiry') ?? ''),
        cvc: String(fields.get('cardCvc') ?? ''),
      },
      t,
    );
    if ('error' in parsed) {
      setCardError(parsed.error);
      return;
    }
    setProcessing(true);
    setCardError(null);
    try {
      if (setup) {
        onConfirmed((await confirmDemoSetup(clientSecret, parsed.card)).setupIntent.id);
        return;
      }
      const { paymentIntent } = await confirmDemoPayment(clientSecret, parsed.card);
      if (paymentIntent.status === 'succeeded') {
        onConfirmed(paymentIntent.id);
        return;
      }
      setCardError(t('card.notComplete', { status: paymentIntent.status }));
    } catch (cause) {
      setCardError(errorText(cause, t));
    }
    setProcessing(false);
  }

  return (
    <form className="payment__form" onSubmit={handleSubmit} aria-describedby={noteId} noValidate>
      <div className="payment__demo-note">
        <span className="badge">{t('card.demo')}</span>
        <p id={noteId}>{setup ? t('card.demoSetupNote') : t('card.demoNote')}</p>
      </div>
      <fieldset className="payment__fields" disabled={processing}>
        <legend className="visually-hidden">{t('card.card')}</legend>
        <div className="field payment__field--number">
          <label htmlFor={`${id}-number`}>{t('card.number')}</label>
          <input
            id={`${id}-number`}
            name="cardNumber"
            type="text"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            maxLength={23}
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-expiry`}>{t('card.expiry')}</label>
          <input
            id={`${id}-expiry`}
            name="cardExpiry"
            type="text"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t('card.expiryPlaceholder')}
            maxLength={9}
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cvc`}>{t('card.cvc')}</label>
          <input
            id={`${id}-cvc`}
            name="cardCvc"
            type="text"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            spellCheck={false}
          />
        </div>
      </fieldset>
      <PaymentError message={cardError} />
      <PayButton amount={setup ? null : amount} disabled={!clientSecret || processing || !online} busy={processing} />
    </form>
  );
}
