import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { BackToAppointments, OfflineNote, PayButton, PaymentError } from '../../../components/payment-form-parts.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { ApiError } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { dueOnline } from '../../../lib/payment-rules.ts';
import { useReloadOnReconnect } from '../../../lib/use-online-status.ts';
import { type PayFor, useCardProvider, usePaymentIntent } from '../api/create-payment-intent.ts';
import type { Booking } from '../api/get-booking.ts';
import { recordPayment } from '../api/record-payment.ts';
import { DemoCardForm } from './demo-card-form.tsx';
import { FamilyChoice } from './family-choice.tsx';
import { ReceiptView } from './receipt.tsx';

// Stripe (react-stripe-js, then Stripe.js itself) is fetched only when the Worker answers with Stripe.
const StripeCheckout = lazy(() => import('./stripe-checkout.tsx').then((m) => ({ default: m.StripeCheckout })));

/**
 * The PaymentIntent Stripe names when it brings the patient back from a payment method that left
 * the page (`?payment_intent=…&redirect_status=…`), or null.
 */
function returnFromStripe(): { intent: string; succeeded: boolean } | null {
  const query = new URLSearchParams(window.location.search);
  const intent = query.get('payment_intent');
  return intent ? { intent, succeeded: query.get('redirect_status') === 'succeeded' } : null;
}

/**
 * docs/product-payments.md#payment: fetches the client secret, shows the provider's card form, and after the
 * provider confirms the card shows the transaction id, records the payment with the Worker and
 * shows the receipt.
 */
export function Checkout({
  booking,
  family,
  whole,
  onWholeChange,
  online,
}: {
  booking: Booking;
  family: Booking[];
  /** With other members of its family visit still to pay: whether this payment pays them all. */
  whole: boolean;
  onWholeChange: (whole: boolean) => void;
  online: boolean;
}) {
  const paying = payingFor(booking, family, whole);
  const together = paying.length > 1;
  const payFor: PayFor =
    together && booking.familyVisitId ? { familyVisitId: booking.familyVisitId } : { bookingId: booking._id };
  const amount = paying.reduce((sum, b) => sum + dueOnline(b), 0);
  const [paid, setPaid] = useState<{ ids: string[]; amount: number }>({ ids: [], amount: 0 });
  const [transactionId, setTransactionId] = useState<string | null>(null);
  const [recorded, setRecorded] = useState(false);
  const [recordError, setRecordError] = useState<string | null>(null);
  const [refundNote, setRefundNote] = useState<string | null>(null);
  const [returnError, setReturnError] = useState<string | null>(null);
  const payable = !booking.paid && transactionId === null;
  const intent = usePaymentIntent(payable ? payFor : null, booking._id);
  const cards = useCardProvider().data?.provider;
  const intentError = intent.error as unknown;
  const retryIntent = intent.mutate;
  const { t, format } = useLanguage();
  useReloadOnReconnect(online, Boolean(intentError), retryIntent);

  async function handleConfirmed(id: string) {
    setTransactionId(id);
    setPaid({ ids: paying.map((b) => b._id), amount });
    try {
      const recorded = await recordPayment({
        transactionId: id,
        price: booking.price,
        email: booking.email,
        bookingId: booking._id,
      });
      if (recorded.refundDue) setRefundNote(recorded.message);
      setRecorded(true);
    } catch (cause) {
      setRecordError(errorText(cause, t));
    }
  }

  // Back from a payment method that left the page: the payment is recorded as if confirmed here.
  const handleReturn = useEffectEvent(() => {
    const returned = returnFromStripe();
    if (!returned) return;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (returned.succeeded) void handleConfirmed(returned.intent);
    else setReturnError(t('pay.notComplete'));
  });
  useEffect(() => handleReturn(), []);

  if (transactionId) {
    return (
      <div className="payment__result">
        {refundNote ? (
          <PaymentOutcome title={t('pay.willRefund')} note={refundNote} transactionId={transactionId} />
        ) : (
          <PaymentOutcome
            title={t('pay.done')}
            note={t('pay.doneNote', { count: paid.ids.length, amount: format.price(paid.amount) })}
            transactionId={transactionId}
          />
        )}
        <PaymentError message={recordError} />
        {recorded && paid.ids.map((id) => <ReceiptView key={id} bookingId={id} />)}
        <BackToAppointments />
      </div>
    );
  }

  if (booking.paid) {
    return (
      <div className="payment__result">
        <p className="payment__paid">
          <span className="badge">{t('mine.paid')}</span> <span>{t('pay.isPaid')}</span>
        </p>
        <ReceiptView bookingId={booking._id} />
        <BackToAppointments />
      </div>
    );
  }

  const offlineFailure = !online && intentError instanceof ApiError && intentError.status === 0;
  const answer = intent.data;
  return (
    <div className="payment__checkout">
      {!online && <OfflineNote />}
      {family.length > 1 && <FamilyChoice booking={booking} family={family} whole={whole} onChange={onWholeChange} />}
      <PaymentError message={returnError} />
      {intentError && !offlineFailure ? (
        <div className="payment__retry">
          <PaymentError message={errorText(intentError, t)} />
          <button type="button" className="button button--small" onClick={() => void retryIntent()} disabled={!online}>
            {t('common.tryAgain')}
          </button>
        </div>
      ) : null}
      {!answer && cards === 'demo' ? (
        // The demo form paints with the page; its Pay button waits for the intent.
        <DemoCardForm clientSecret={null} amount={amount} online={online} onConfirmed={handleConfirmed} />
      ) : !answer ? (
        <form className="payment__form" onSubmit={(event) => event.preventDefault()}>
          {!intentError && <Spinner label={t('pay.preparing')} />}
          <PayButton amount={amount} disabled />
        </form>
      ) : answer.provider === 'stripe' ? (
        answer.publishableKey ? (
          <Suspense fallback={<Spinner label={t('booking.loadingCardForm')} />}>
            <StripeCheckout
              publishableKey={answer.publishableKey}
              clientSecret={answer.clientSecret}
              billing={{ name: booking.patientName, email: booking.email }}
              returnUrl={`${window.location.origin}/dashboard/payment/${encodeURIComponent(booking._id)}`}
              amount={amount}
              online={online}
              onConfirmed={handleConfirmed}
            />
          </Suspense>
        ) : (
          <PaymentError message={t('pay.notSetUp')} />
        )
      ) : (
        <DemoCardForm
          clientSecret={answer.clientSecret}
          amount={amount}
          online={online}
          onConfirmed={handleConfirmed}
        />
      )}
    </div>
  );
}

/** The bookings one payment pays: the whole family visit still to pay when chosen (the default), else `booking` alone. */
export function payingFor(booking: Booking, family: Booking[], whole: boolean): Booking[] {
  return whole && family.length > 1 && booking.familyVisitId !== null ? family : [booking];
}

/**
 * docs/product-payments.md#payment success, or the refund notice (docs/product-payments.md#refunds) when the money cannot pay the booking (cancelled while the
 * card was being charged). It takes the focus the Pay button had, since the form is gone.
 */
function PaymentOutcome({ title, note, transactionId }: { title: string; note?: string; transactionId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title is the trigger: a new outcome (paid, then refund due) takes the focus again.
  useEffect(() => ref.current?.focus(), [title]);
  const t = useLanguage().t;
  return (
    <div ref={ref} role="status" tabIndex={-1} className="payment__success">
      <p className="payment__success-title">{title}</p>
      {note && <p>{note}</p>}
      <p>
        {t('pay.transaction')} <span className="payment__transaction">{transactionId}</span>
      </p>
    </div>
  );
}
