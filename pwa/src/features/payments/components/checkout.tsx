import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { ApiError } from '../../../lib/http.ts';
import { useReloadOnReconnect } from '../../../lib/use-online-status.ts';
import { usePaymentIntent } from '../api/create-payment-intent.ts';
import type { Booking } from '../api/get-booking.ts';
import { useRecordPayment } from '../api/record-payment.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import { BackToAppointments, OfflineNote, PayButton, PaymentError } from './payment-form-parts.tsx';

// Stripe (react-stripe-js, then Stripe.js itself) is fetched only when the Worker answers with Stripe.
const StripeCheckout = lazy(() => import('./stripe-checkout.tsx').then((m) => ({ default: m.StripeCheckout })));

/**
 * docs/product.md#payment: fetches the client secret, shows the provider's card form, and after the
 * provider confirms the card shows the transaction id and records the payment with the Worker.
 */
export function Checkout({ booking, online }: { booking: Booking; online: boolean }) {
  const recordPayment = useRecordPayment();
  const [transactionId, setTransactionId] = useState<string | null>(null);
  const [recordError, setRecordError] = useState<string | null>(null);
  const [refundNote, setRefundNote] = useState<string | null>(null);
  const payable = !booking.paid && transactionId === null;
  const intent = usePaymentIntent(payable ? booking._id : null);
  const intentError = intent.error as unknown;
  const retryIntent = intent.mutate;
  useReloadOnReconnect(online, Boolean(intentError), retryIntent);

  async function handleConfirmed(id: string) {
    setTransactionId(id);
    try {
      const recorded = await recordPayment({
        transactionId: id,
        price: booking.price,
        email: booking.email,
        bookingId: booking._id,
      });
      if (recorded.refundDue) setRefundNote(recorded.message);
    } catch (cause) {
      setRecordError(errorText(cause));
    }
  }

  if (transactionId) {
    return (
      <div className="payment__result">
        {refundNote ? (
          <PaymentOutcome title="Your payment will be refunded" note={refundNote} transactionId={transactionId} />
        ) : (
          <PaymentOutcome title="Congrats your payment completed" transactionId={transactionId} />
        )}
        <PaymentError message={recordError} />
        <BackToAppointments />
      </div>
    );
  }

  if (booking.paid) {
    return (
      <div className="payment__result">
        <p className="payment__paid">
          <span className="badge">Paid</span> <span>This appointment is paid.</span>
        </p>
        <BackToAppointments />
      </div>
    );
  }

  const offlineFailure = !online && intentError instanceof ApiError && intentError.status === 0;
  const answer = intent.data;
  return (
    <div className="payment__checkout">
      {!online && <OfflineNote />}
      {intentError && !offlineFailure ? (
        <div className="payment__retry">
          <PaymentError message={errorText(intentError)} />
          <button type="button" className="button button--small" onClick={() => void retryIntent()} disabled={!online}>
            Try again
          </button>
        </div>
      ) : null}
      {!answer ? (
        <form className="payment__form" onSubmit={(event) => event.preventDefault()}>
          {!intentError && <Spinner label="Preparing the payment" />}
          <PayButton disabled />
        </form>
      ) : answer.provider === 'stripe' ? (
        answer.publishableKey ? (
          <Suspense fallback={<Spinner label="Loading the card form" />}>
            <StripeCheckout
              publishableKey={answer.publishableKey}
              clientSecret={answer.clientSecret}
              billing={{ name: booking.patientName, email: booking.email }}
              online={online}
              onConfirmed={handleConfirmed}
            />
          </Suspense>
        ) : (
          <PaymentError message="Card payments are not set up yet (no Stripe publishable key). Please pay at the clinic." />
        )
      ) : (
        <DemoCardForm clientSecret={answer.clientSecret} online={online} onConfirmed={handleConfirmed} />
      )}
    </div>
  );
}

/**
 * docs/product.md#payment success, or the refund notice (docs/product.md#refunds-due) when the money cannot pay the booking (cancelled while the
 * card was being charged). It takes the focus the Pay button had, since the form is gone.
 */
function PaymentOutcome({ title, note, transactionId }: { title: string; note?: string; transactionId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title is the trigger: a new outcome (paid, then refund due) takes the focus again.
  useEffect(() => ref.current?.focus(), [title]);
  return (
    <div ref={ref} role="status" tabIndex={-1} className="payment__success">
      <p className="payment__success-title">{title}</p>
      {note && <p>{note}</p>}
      <p>
        Your transaction id: <span className="payment__transaction">{transactionId}</span>
      </p>
    </div>
  );
}
