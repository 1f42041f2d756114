import { lazy, Suspense, useState } from 'react';
import useSWR from 'swr';
import { useParams } from 'wouter';
import type { Fee } from '../../../../../contract/fees.ts';
import { BackToAppointments, OfflineNote, PaymentError } from '../../../components/payment-form-parts.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus } from '../../../lib/use-online-status.ts';
import { createPaymentIntent, type PaymentIntentAnswer } from '../api/create-payment-intent.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import '../payments.css';
import { client } from '../../../lib/client.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { pathOf } from '../../../lib/route-paths.ts';

const StripeCheckout = lazy(() => import('./stripe-checkout.tsx').then((m) => ({ default: m.StripeCheckout })));

/**
 * docs/product-payments.md#fees, /dashboard/fees/:id (the link of "Please pay the missed-appointment fee"):
 * the fee, and while it is unpaid the provider's card form for it.
 */
export function FeePage() {
  const { id } = useParams<{ id: string }>();
  const online = useOnlineStatus();
  const { user } = useSession();
  const {
    data: fee,
    error,
    mutate,
  } = useSWR<Fee>(pathOf('GET /fees/:id', { params: { id } }), () => client('GET /fees/:id', { params: { id } }));
  const [intent, setIntent] = useState<PaymentIntentAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [paidWith, setPaidWith] = useState<string | null>(null);
  const { t, format } = useLanguage();

  async function start() {
    setProblem(null);
    try {
      setIntent(await createPaymentIntent({ feeId: id }));
    } catch (cause) {
      setProblem(errorText(cause, t));
    }
  }

  async function confirmed(transactionId: string) {
    setPaidWith(transactionId);
    setIntent(null);
    await mutate();
  }

  const title = fee ? t('fee.title', { kind: fee.kind, amount: format.price(fee.amount) }) : t('fee.fee');
  return (
    <section className="dashboard-page payment" aria-labelledby="fee-title">
      <h1 id="fee-title">{title}</h1>
      <div className="payment__card">
        {!fee ? (
          error ? (
            <>
              <PaymentError message={t('fee.loadFailed', { reason: errorText(error, t) })} />
              <BackToAppointments />
            </>
          ) : (
            <Spinner label={t('fee.loading')} />
          )
        ) : (
          <>
            <p className="payment__summary">{t('fee.status', { status: fee.status })}</p>
            {fee.failure && fee.status === 'unpaid' && (
              <p className="payment__policy">{t('fee.failed', { reason: fee.failure })}</p>
            )}
            {paidWith && (
              <p role="status" className="payment__success">
                {t('fee.paid', { amount: format.price(fee.amount) })}{' '}
                <span className="payment__transaction">{paidWith}</span>
              </p>
            )}
            {!online && <OfflineNote />}
            {fee.status === 'unpaid' && !intent && (
              <button type="button" className="button button--primary" onClick={() => void start()} disabled={!online}>
                {t('card.pay', { amount: format.price(fee.amount) })}
              </button>
            )}
            {intent &&
              (intent.provider === 'stripe' && intent.publishableKey ? (
                <Suspense fallback={<Spinner label={t('booking.loadingCardForm')} />}>
                  <StripeCheckout
                    publishableKey={intent.publishableKey}
                    clientSecret={intent.clientSecret}
                    billing={{ name: user?.displayName ?? '', email: user?.email ?? '' }}
                    returnUrl={window.location.href}
                    amount={fee.amount}
                    online={online}
                    onConfirmed={(transactionId) => void confirmed(transactionId)}
                  />
                </Suspense>
              ) : (
                <DemoCardForm
                  clientSecret={intent.clientSecret}
                  amount={fee.amount}
                  online={online}
                  onConfirmed={(transactionId) => void confirmed(transactionId)}
                />
              ))}
            <PaymentError message={problem} />
            <BackToAppointments />
          </>
        )}
      </div>
    </section>
  );
}
