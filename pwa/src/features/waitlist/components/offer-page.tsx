import { type ReactNode, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { CLINIC_TIME_ZONE } from '../../../lib/clinic-time-zone.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { answerOffer, useOffer, type WaitlistOffer } from '../api/offer.ts';
import '../waitlist.css';

/** e.g. "Nov 22, 3:00 PM", on the clinic's clock like the appointment times. */
const heldUntilText = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: CLINIC_TIME_ZONE,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));

const CLOSED: Record<Exclude<WaitlistOffer['status'], 'open'>, string> = {
  accepted: 'You accepted this offer: the appointment is in My Appointments.',
  declined: 'You declined this offer.',
  expired: 'This offer has expired; the time went to the next patient in line.',
  withdrawn: 'This offer was withdrawn because you left the waitlist.',
};

/**
 * docs/product-booking.md#waitlist-offer, /offers/:id (signed in): a time freed for a patient on the waitlist, held until the offer
 * expires. Accept books it; Decline passes it to the next patient in line.
 */
export function OfferPage() {
  const { id } = useParams<{ id: string }>();
  const { data: offer, error } = useOffer(id);
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  async function answer(choice: 'accept' | 'decline') {
    setBusy(true);
    try {
      const result = await answerOffer(id, choice);
      notify.success(result.message);
      if (choice === 'accept') navigate('/dashboard');
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  let content: ReactNode;
  if (!offer) {
    content = error ? (
      <p role="alert" className="form-error">
        This offer could not be loaded: {errorText(error)}
      </p>
    ) : (
      <Spinner label="Loading the offer" />
    );
  } else {
    content = (
      <>
        <p className="offer__summary">
          {offer.treatment} on {offer.appointmentDate} at {offer.slot}
        </p>
        <dl className="offer__details">
          {offer.doctor && (
            <>
              <dt>Doctor</dt>
              <dd>{offer.doctor}</dd>
            </>
          )}
          <dt>Price</dt>
          <dd>{formatPrice(offer.price)}</dd>
        </dl>
        {offer.status === 'open' ? (
          <>
            <p>We are holding this time for you until {heldUntilText(offer.expiresAt)}.</p>
            <div className="offer__actions">
              <button
                type="button"
                className="button button--primary"
                disabled={busy}
                onClick={() => void answer('accept')}
              >
                Accept and book
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => void answer('decline')}>
                Decline
              </button>
            </div>
          </>
        ) : (
          <p role="status">{CLOSED[offer.status]}</p>
        )}
      </>
    );
  }

  return (
    <section className="offer-page" aria-labelledby="offer-title">
      <h1 id="offer-title">A time is free for you</h1>
      <div className="offer__card">
        {content}
        <Link href="/dashboard">My Appointments</Link>
      </div>
    </section>
  );
}
