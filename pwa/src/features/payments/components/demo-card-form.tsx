import { type SubmitEvent, useId, useState } from 'react';
import { PayButton, PaymentError } from '../../../components/payment-form-parts.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { confirmDemoSetup } from '../api/cards.ts';
import { confirmDemoPayment, parseDemoCard } from '../api/confirm-demo-payment.ts';

const DEMO_NOTE =
  'Demo payments: no card is charged. Use 4242 4242 4242 4242 to pay, 4000 0000 0000 0002 to see a decline.';
const DEMO_SETUP_NOTE =
  'Demo cards: nothing is charged. Use 4242 4242 4242 4242 to save a card; 4000 0000 0000 0341 saves one whose charges are declined.';

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

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!clientSecret || processing || !online) return;
    const fields = new FormData(event.currentTarget);
    const parsed = parseDemoCard({
      number: String(fields.get('cardNumber') ?? ''),
      expiry: String(fields.get('cardExpiry') ?? ''),
      cvc: String(fields.get('cardCvc') ?? ''),
    });
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
      setCardError(`The payment did not complete (${paymentIntent.status}). Please try again.`);
    } catch (cause) {
      setCardError(errorText(cause));
    }
    setProcessing(false);
  }

  return (
    <form className="payment__form" onSubmit={handleSubmit} aria-describedby={noteId} noValidate>
      <div className="payment__demo-note">
        <span className="badge">Demo</span>
        <p id={noteId}>{setup ? DEMO_SETUP_NOTE : DEMO_NOTE}</p>
      </div>
      <fieldset className="payment__fields" disabled={processing}>
        <legend className="visually-hidden">Card</legend>
        <div className="field payment__field--number">
          <label htmlFor={`${id}-number`}>Card number</label>
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
          <label htmlFor={`${id}-expiry`}>Expiry (MM/YY)</label>
          <input
            id={`${id}-expiry`}
            name="cardExpiry"
            type="text"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={9}
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-cvc`}>CVC</label>
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
