import { lazy, Suspense, useState } from 'react';
import useSWR from 'swr';
import { useParams } from 'wouter';
import { FEE_NAMES } from '../../../../../contract/cards.ts';
import type { Fee } from '../../../../../contract/fees.ts';
import { BackToAppointments, OfflineNote, PaymentError } from '../../../components/payment-form-parts.tsx';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus } from '../../../lib/use-online-status.ts';
import { createPaymentIntent, type PaymentIntentAnswer } from '../api/create-payment-intent.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import '../payments.css';
import { client } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

const StripeCheckout = lazy(() => import('./stripe-checkout.tsx').then((m) => ({ default: m.StripeCheckout })));

const STATUS_TEXT: Record<Fee['status'], string> = {
  charging: 'Being charged to your card on file.',
  charged: 'Charged to your card on file.',
  unpaid: 'Not paid yet.',
  paid: 'Paid. Thank you.',
  waived: 'Waived by the clinic: you owe nothing for it.',
};

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

  async function start() {
    setProblem(null);
    try {
      setIntent(await createPaymentIntent({ feeId: id }));
    } catch (cause) {
      setProblem(errorText(cause));
    }
  }

  async function confirmed(transactionId: string) {
    setPaidWith(transactionId);
    setIntent(null);
    await mutate();
  }

  const title = fee ? `${FEE_NAMES[fee.kind]}: ${formatPrice(fee.amount)}` : 'Fee';
  return (
    <section className="dashboard-page payment" aria-labelledby="fee-title">
      <h1 id="fee-title">{title}</h1>
      <div className="payment__card">
        {!fee ? (
          error ? (
            <>
              <PaymentError message={`This fee could not be loaded: ${errorText(error)}`} />
              <BackToAppointments />
            </>
          ) : (
            <Spinner label="Loading the fee" />
          )
        ) : (
          <>
            <p className="payment__summary">{STATUS_TEXT[fee.status]}</p>
            {fee.failure && fee.status === 'unpaid' && (
              <p className="payment__policy">Your card on file could not be charged: {fee.failure}.</p>
            )}
            {paidWith && (
              <p role="status" className="payment__success">
                You paid {formatPrice(fee.amount)}. Your transaction id:{' '}
                <span className="payment__transaction">{paidWith}</span>
              </p>
            )}
            {!online && <OfflineNote />}
            {fee.status === 'unpaid' && !intent && (
              <button type="button" className="button button--primary" onClick={() => void start()} disabled={!online}>
                Pay {formatPrice(fee.amount)}
              </button>
            )}
            {intent &&
              (intent.provider === 'stripe' && intent.publishableKey ? (
                <Suspense fallback={<Spinner label="Loading the card form" />}>
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
