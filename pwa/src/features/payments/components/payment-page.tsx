import { useState } from 'react';
import { useParams } from 'wouter';
import { BackToAppointments, OfflineNote } from '../../../components/payment-form-parts.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { payBySentence, policySentence } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { type Formats, type Translate, useLanguage } from '../../../lib/i18n.tsx';
import { dueOnline } from '../../../lib/payment-rules.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus, useReloadOnReconnect } from '../../../lib/use-online-status.ts';
import { useMyBookings } from '../../bookings/api/get-my-bookings.ts';
import { type Booking, useBooking } from '../api/get-booking.ts';
import { Checkout, payingFor } from './checkout.tsx';
import '../payments.css';

/** docs/product-payments.md#payment, /dashboard/payment/:id (signed in): the booking, then its card form. */
export function PaymentPage() {
  const { id } = useParams<{ id: string }>();
  const online = useOnlineStatus();
  const { data: booking, error, mutate } = useBooking(id);
  const family = useFamilyToPay(booking);
  // With other members of its family visit still to pay, one payment can pay them all (the default).
  const [whole, setWhole] = useState(true);
  const words = useLanguage();
  const { t, format } = words;

  useReloadOnReconnect(online, Boolean(error), mutate);

  if (!booking) {
    return (
      <section className="dashboard-page payment" aria-labelledby="payment-title">
        <h1 id="payment-title">{t('pay.title')}</h1>
        <div className="payment__card">
          {!error ? (
            <Spinner label={t('pay.loading')} />
          ) : (
            <>
              {online ? (
                <p role="alert" className="form-error">
                  {t('pay.loadFailed', { reason: errorText(error, t) })}
                </p>
              ) : (
                <OfflineNote />
              )}
              <BackToAppointments />
            </>
          )}
        </div>
      </section>
    );
  }

  return (
    <section className="dashboard-page payment" aria-labelledby="payment-title">
      <h1 id="payment-title">{t('pay.titleFor', { treatment: booking.treatment })}</h1>
      <div className="payment__card">
        {/* A paid booking asks for nothing: Checkout says it is paid. */}
        <p className="payment__summary">{summary(booking, payingFor(booking, family ?? [], whole), t, format)}</p>
        <p className="payment__patient">{t('pay.patient', { name: booking.patient ?? booking.patientName })}</p>
        {!booking.paid && booking.payBy && <p className="payment__deadline">{payBySentence(booking.payBy, words)}</p>}
        <p className="payment__policy">{policySentence(booking, words)}</p>
        {family ? (
          <Checkout booking={booking} family={family} whole={whole} onWholeChange={setWhole} online={online} />
        ) : (
          <Spinner label={t('pay.loadingFamily')} />
        )}
      </div>
    </section>
  );
}

/** What the page asks for: the amount the Pay button charges, for this visit or the whole family's. */
function summary(booking: Booking, paying: Booking[], t: Translate, format: Formats): string {
  const when = { day: format.visitDay(booking), slot: format.visitTime(booking) };
  if (booking.paid) return t('pay.summaryPaid', when);
  if (paying.length > 1) {
    const total = paying.reduce((sum, b) => sum + dueOnline(b), 0);
    return t('pay.summaryFamily', { amount: format.price(total), day: when.day, count: paying.length });
  }
  return booking.deposit === null
    ? t('pay.summary', { ...when, amount: format.price(booking.price) })
    : t('pay.summaryDeposit', {
        ...when,
        deposit: format.price(booking.deposit),
        rest: format.price(booking.price - booking.deposit),
      });
}

/**
 * The bookings of `booking`'s family visit still to pay (itself among them), from My Appointments'
 * list; undefined while that list loads (the payment waits for it: it may pay them all).
 */
function useFamilyToPay(booking: Booking | undefined): Booking[] | undefined {
  const { user } = useSession();
  const familyVisitId = booking?.familyVisitId ?? null;
  const { data, error } = useMyBookings(familyVisitId ? user?.email : null);
  if (!familyVisitId || error) return [];
  if (!data) return undefined;
  const now = Date.now();
  return data.bookings.filter(
    (b) =>
      b.familyVisitId === familyVisitId &&
      b.status === 'active' &&
      !b.paid &&
      b.price > 0 &&
      (!b.payBy || Date.parse(b.payBy) > now),
  );
}
