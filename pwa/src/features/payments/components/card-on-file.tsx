import { lazy, Suspense, useState } from 'react';
import { cardText } from '../../../../../contract/cards.ts';
import { PaymentError } from '../../../components/payment-form-parts.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type CardSetup, removeCard, startCardSetup, useCards } from '../api/cards.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import '../payments.css';

const StripeCheckout = lazy(() => import('./stripe-checkout.tsx').then((m) => ({ default: m.StripeCheckout })));

/**
 * docs/product-payments.md#cards-on-file: the patient's card on file (the newest: the one any fee is charged
 * to), or a form to save one through the provider (nothing is charged). Saved with Stripe, the card
 * arrives through Stripe's webhook: the list is asked again until it shows.
 */
export function CardOnFile({
  email,
  name,
  online,
  removable = false,
}: {
  email: string;
  name: string;
  online: boolean;
  /** My Appointments lets the patient remove a card; a booking dialog only shows it. */
  removable?: boolean;
}) {
  const [setup, setSetup] = useState<CardSetup | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { data: cards, error, mutate } = useCards(email, waiting ? 2000 : 0);
  const [card] = cards ?? [];
  const t = useT();
  if (waiting && card) setWaiting(false);

  async function start() {
    setProblem(null);
    try {
      setSetup(await startCardSetup());
    } catch (cause) {
      setProblem(errorText(cause, t));
    }
  }

  async function saved() {
    setSetup(null);
    setWaiting(true);
    await mutate();
  }

  async function remove(id: string) {
    setProblem(null);
    try {
      await removeCard(id);
      await mutate();
    } catch (cause) {
      setProblem(errorText(cause, t));
    }
  }

  if (!cards) {
    return error ? (
      <PaymentError message={t('cards.loadFailed', { reason: errorText(error, t) })} />
    ) : (
      <Spinner label={t('cards.loading')} />
    );
  }
  return (
    <div className="card-on-file">
      {card && (
        <p className="card-on-file__card">
          {t('cards.onFile')} <strong>{cardText(card)}</strong>
          {t('cards.expires', {
            month: String(card.expMonth).padStart(2, '0'),
            year: String(card.expYear).slice(-2),
          })}
          {removable && (
            <button
              type="button"
              className="button button--small card-on-file__remove"
              onClick={() => void remove(card._id)}
              disabled={!online}
            >
              {t('cards.remove')}
            </button>
          )}
        </p>
      )}
      {waiting && !card && <Spinner label={t('cards.saving')} />}
      {!setup && !waiting && (
        <button type="button" className="button" onClick={() => void start()} disabled={!online}>
          {card ? t('cards.another') : t('cards.save')}
        </button>
      )}
      {setup &&
        (setup.provider === 'stripe' ? (
          setup.publishableKey ? (
            <Suspense fallback={<Spinner label={t('booking.loadingCardForm')} />}>
              <StripeCheckout
                setup
                publishableKey={setup.publishableKey}
                clientSecret={setup.clientSecret}
                billing={{ name, email }}
                returnUrl={window.location.href}
                amount={0}
                online={online}
                onConfirmed={() => void saved()}
              />
            </Suspense>
          ) : (
            <PaymentError message={t('cards.notSetUp')} />
          )
        ) : (
          <DemoCardForm
            setup
            clientSecret={setup.clientSecret}
            amount={0}
            online={online}
            onConfirmed={() => void saved()}
          />
        ))}
      <PaymentError message={problem} />
    </div>
  );
}
