import { type ReactNode, useId } from 'react';
import { Link } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { type MessageKey, useLanguage } from '../../../lib/i18n.tsx';
import type { PastBooking, useBookingHistory } from '../api/booking-history.ts';
import { byPerson } from '../by-person.ts';

/** What became of a visit, in words. */
function outcomeOf(booking: PastBooking): { text: MessageKey; cancelled: boolean } {
  switch (booking.status) {
    case 'attended':
      return { text: 'past.attended', cancelled: false };
    case 'no_show':
      return { text: 'past.missed', cancelled: true };
    case 'cancelled':
      return {
        text:
          booking.cancelReason === 'admin'
            ? 'past.byClinic'
            : booking.cancelReason === 'unpaid'
              ? 'past.released'
              : 'past.byYou',
        cancelled: true,
      };
    default:
      return { text: 'past.past', cancelled: false };
  }
}

/** One visit that is over or off: what became of it, its refund (to whom it went back) and its receipt. */
function PastVisit({ booking }: { booking: PastBooking }) {
  const outcome = outcomeOf(booking);
  const { t, format } = useLanguage();
  return (
    <li className="past-visits__item">
      <strong>{booking.treatment}</strong>
      <span>
        {format.visitDay(booking)}, {format.visitTime(booking)}
      </span>
      {booking.doctor && <span className="muted">{booking.doctor.name}</span>}
      <span>
        <span className={outcome.cancelled ? 'badge badge--cancelled' : 'badge'}>{t(outcome.text)}</span>{' '}
        {format.price(booking.price)}
      </span>
      {booking.cancelNote && <small className="past-visits__note">{booking.cancelNote}</small>}
      {booking.refund && (
        <small className="past-visits__note">
          {t('past.refund', { status: booking.refund.status, amount: format.price(booking.refund.amount) })}
        </small>
      )}
      {booking.hasReceipt && (
        <Link
          href={`/dashboard/receipt/${encodeURIComponent(booking._id)}`}
          aria-label={t('mine.receiptFor', { treatment: booking.treatment, day: format.visitDay(booking) })}
        >
          {t('mine.receipt')}
        </Link>
      )}
    </li>
  );
}

/**
 * docs/product-booking.md#my-appointments: "Past and cancelled": each visit that is over or off, newest
 * first, with what became of it, its refund and its receipt, 20 at a time.
 */
export function PastVisits({
  history,
  family,
}: {
  history: ReturnType<typeof useBookingHistory>;
  /** The account's dependants: their visits are listed under their names. */
  family: readonly { name: string }[];
}) {
  const id = useId();
  const { bookings, error } = history;
  const { t } = useLanguage();
  let body: ReactNode;
  if (error && !bookings) body = <p role="alert">{t('past.loadFailed', { reason: errorText(error, t) })}</p>;
  else if (!bookings) body = <Spinner label={t('past.loading')} />;
  else if (bookings.length === 0) body = <p className="muted">{t('past.none')}</p>;
  else {
    // A family's visits by person (the account holder's first), each newest first: a dependant's
    // visit always under their name, even when the holder has none of their own.
    const groups = byPerson(bookings, family);
    const list = (visits: readonly PastBooking[]) => (
      <ul className="past-visits__list">
        {visits.map((booking) => (
          <PastVisit key={booking._id} booking={booking} />
        ))}
      </ul>
    );
    body =
      groups.length === 1 && groups[0]?.name === null
        ? list(bookings)
        : groups.map((group, i) => (
            <section key={group.name ?? ''} className="past-visits__person" aria-labelledby={`${id}-person-${i}`}>
              <h3 id={`${id}-person-${i}`}>{group.name ?? t('past.yours')}</h3>
              {list(group.bookings)}
            </section>
          ));
  }
  return (
    <section className="past-visits" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('past.title')}</h2>
      {body}
      {history.hasMore && (
        <button type="button" className="button" onClick={() => void history.more()} disabled={history.loadingMore}>
          {t('past.older')}
        </button>
      )}
    </section>
  );
}
