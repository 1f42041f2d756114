import { type ReactNode, useId } from 'react';
import { Link } from 'wouter';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { PastBooking, useBookingHistory } from '../api/booking-history.ts';
import { byPerson } from '../by-person.ts';

/** What became of a visit, in words. */
function outcomeOf(booking: PastBooking): { text: string; cancelled: boolean } {
  switch (booking.status) {
    case 'attended':
      return { text: 'Attended', cancelled: false };
    case 'no_show':
      return { text: 'Missed', cancelled: true };
    case 'cancelled':
      return {
        text:
          booking.cancelReason === 'admin'
            ? 'Cancelled by the clinic'
            : booking.cancelReason === 'unpaid'
              ? 'Released: not paid in time'
              : 'Cancelled by you',
        cancelled: true,
      };
    default:
      return { text: 'Past', cancelled: false };
  }
}

/** Where a visit's refund stands: "$80.00 refunded to your card". */
function refundText(refund: NonNullable<PastBooking['refund']>): string {
  const amount = formatPrice(refund.amount);
  switch (refund.status) {
    case 'succeeded':
      return `${amount} refunded`;
    case 'pending':
      return `${amount} being refunded`;
    case 'due':
      return `${amount} to be given back by the clinic`;
    case 'failed':
      return `The refund of ${amount} did not go through; the clinic will contact you`;
  }
}

/** One visit that is over or off: what became of it, its refund (to whom it went back) and its receipt. */
function PastVisit({ booking }: { booking: PastBooking }) {
  const outcome = outcomeOf(booking);
  return (
    <li className="past-visits__item">
      <strong>{booking.treatment}</strong>
      <span>
        {booking.appointmentDate}, {booking.slot}
      </span>
      {booking.doctor && <span className="muted">{booking.doctor.name}</span>}
      <span>
        <span className={outcome.cancelled ? 'badge badge--cancelled' : 'badge'}>{outcome.text}</span>{' '}
        {formatPrice(booking.price)}
      </span>
      {booking.cancelNote && <small className="past-visits__note">{booking.cancelNote}</small>}
      {booking.refund && <small className="past-visits__note">{refundText(booking.refund)}</small>}
      {booking.hasReceipt && (
        <Link
          href={`/dashboard/receipt/${encodeURIComponent(booking._id)}`}
          aria-label={`Receipt for ${booking.treatment} on ${booking.appointmentDate}`}
        >
          Receipt
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
  let body: ReactNode;
  if (error && !bookings) body = <p role="alert">Your past visits could not be loaded: {errorText(error)}</p>;
  else if (!bookings) body = <Spinner label="Loading your past visits" />;
  else if (bookings.length === 0) body = <p className="muted">None yet.</p>;
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
              <h3 id={`${id}-person-${i}`}>{group.name ?? 'Your visits'}</h3>
              {list(group.bookings)}
            </section>
          ));
  }
  return (
    <section className="past-visits" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Past and cancelled</h2>
      {body}
      {history.hasMore && (
        <button type="button" className="button" onClick={() => void history.more()} disabled={history.loadingMore}>
          Show older visits
        </button>
      )}
    </section>
  );
}
