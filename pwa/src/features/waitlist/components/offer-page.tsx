import { type ReactNode, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { answerOffer, useOffer } from '../api/offer.ts';
import '../waitlist.css';
import { useLanguage } from '../../../lib/i18n.tsx';

/**
 * docs/product-booking.md#waitlist-offer, /offers/:id (signed in): a time freed for a patient on the waitlist, held until the offer
 * expires. Accept books it; Decline passes it to the next patient in line.
 */
export function OfferPage() {
  const { id } = useParams<{ id: string }>();
  const { data: offer, error } = useOffer(id);
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const { t, format, locale } = useLanguage();

  async function answer(choice: 'accept' | 'decline') {
    setBusy(true);
    try {
      const result = await answerOffer(id, choice);
      notify.success(result.message);
      if (choice === 'accept') navigate('/dashboard');
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setBusy(false);
    }
  }

  let content: ReactNode;
  if (!offer) {
    content = error ? (
      <p role="alert" className="form-error">
        {t('offer.loadFailed', { reason: errorText(error, t) })}
      </p>
    ) : (
      <Spinner label={t('offer.loading')} />
    );
  } else {
    content = (
      <>
        <p className="offer__summary">
          {t('offer.summary', { treatment: offer.treatment, day: offer.appointmentDate, slot: offer.slot })}
        </p>
        <dl className="offer__details">
          {offer.doctor && (
            <>
              <dt>{t('booking.doctor')}</dt>
              <dd>{offer.doctor}</dd>
            </>
          )}
          <dt>{t('booking.price')}</dt>
          <dd>{format.price(offer.price)}</dd>
        </dl>
        {offer.status === 'open' ? (
          <>
            <p>{t('offer.held', { until: clinicMomentText(offer.expiresAt, locale) })}</p>
            <div className="offer__actions">
              <button
                type="button"
                className="button button--primary"
                disabled={busy}
                onClick={() => void answer('accept')}
              >
                {t('offer.accept')}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => void answer('decline')}>
                {t('offer.decline')}
              </button>
            </div>
          </>
        ) : (
          <p role="status">{t('offer.closed', { status: offer.status })}</p>
        )}
      </>
    );
  }

  return (
    <section className="offer-page" aria-labelledby="offer-title">
      <h1 id="offer-title">{t('offer.title')}</h1>
      <div className="offer__card">
        {content}
        <Link href="/dashboard">{t('mine.title')}</Link>
      </div>
    </section>
  );
}
