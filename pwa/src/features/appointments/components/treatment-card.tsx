import { useId } from 'react';
import { formatPrice } from '../../../components/price.ts';
import type { AppointmentOption } from '../../../lib/appointment-options.ts';
import { paymentRuleText } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';

/**
 * One treatment on the chosen day: its next free slot, how many are left, its length, its price and Book
 * Appointment; with no free time that day, Join the waitlist, or, once joined, that the patient waits.
 * Closed that day (every doctor who sees it away): why, and no waitlist, since nothing can free up.
 */
export function TreatmentCard({
  option,
  onBook,
  waiting = false,
  onJoinWaitlist,
}: {
  option: AppointmentOption;
  onBook(): void;
  /** The patient already waits for this treatment on this day. */
  waiting?: boolean;
  /** Absent while joining is not possible (offline, or joining already). */
  onJoinWaitlist?: (() => void) | undefined;
}) {
  const titleId = useId();
  const free = option.slots.length;
  return (
    <article className="treatment-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="treatment-card__name">
        {option.name}
      </h3>
      <p className="treatment-card__slot">{free > 0 ? option.slots[0] : 'Try another day'}</p>
      {option.closed ? (
        <p className="treatment-card__closed">Closed: {option.closed.reason}</p>
      ) : (
        <p className="treatment-card__spaces">
          {free} {free === 1 ? 'space' : 'spaces'} available
        </p>
      )}
      <p className="treatment-card__length">Length: {lengthText(option.durationMinutes)}</p>
      <p className="treatment-card__price">Price: {formatPrice(option.price)}</p>
      {option.payment !== 'full' && option.price > 0 && (
        <p className="treatment-card__payment">{paymentRuleText(option)}</p>
      )}
      <button type="button" className="button button--primary" disabled={free === 0} onClick={onBook}>
        Book Appointment<span className="visually-hidden">: {option.name}</span>
      </button>
      {free === 0 && waiting && (
        <p className="treatment-card__waiting" role="status">
          You are on the waitlist: we will mail you if a time frees up.
        </p>
      )}
      {free === 0 && !waiting && !option.closed && (
        <button type="button" className="button" disabled={!onJoinWaitlist} onClick={onJoinWaitlist}>
          Join the waitlist
        </button>
      )}
    </article>
  );
}
