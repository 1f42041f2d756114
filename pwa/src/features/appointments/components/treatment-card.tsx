import { useId } from 'react';
import type { AppointmentOption } from '../../../lib/appointment-options.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
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
  const words = useLanguage();
  const { t, format } = words;
  return (
    <article className="treatment-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="treatment-card__name">
        {option.name}
      </h3>
      <p className="treatment-card__slot">{free > 0 ? option.slots[0] : t('card.tryAnother')}</p>
      {option.closed ? (
        <p className="treatment-card__closed">{t('closed.reason', { reason: option.closed.reason })}</p>
      ) : (
        <p className="treatment-card__spaces">{t('card.spaces', { count: free })}</p>
      )}
      <p className="treatment-card__length">{t('card.length', { length: lengthText(option.durationMinutes) })}</p>
      <p className="treatment-card__price">{t('card.price', { price: format.price(option.price) })}</p>
      {option.payment !== 'full' && option.price > 0 && (
        <p className="treatment-card__payment">{paymentRuleText(option, words)}</p>
      )}
      <button type="button" className="button button--primary" disabled={free === 0} onClick={onBook}>
        {t('card.book')}
        <span className="visually-hidden">{t('card.bookWhat', { treatment: option.name })}</span>
      </button>
      {free === 0 && waiting && (
        <p className="treatment-card__waiting" role="status">
          {t('card.waiting')}
        </p>
      )}
      {free === 0 && !waiting && !option.closed && (
        <button type="button" className="button" disabled={!onJoinWaitlist} onClick={onJoinWaitlist}>
          {t('card.join')}
        </button>
      )}
    </article>
  );
}
