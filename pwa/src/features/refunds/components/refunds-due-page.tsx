import { format } from 'date-fns/format';
import { useState } from 'react';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { markHandedBack, type RefundDue, useRefundsDue } from '../api/get-refunds-due.ts';
import './refunds.css';

const amountOf = (refund: RefundDue) =>
  refund.currency === 'usd'
    ? formatPrice(refund.amount)
    : `${refund.amount.toFixed(2)} ${refund.currency.toUpperCase()}`;

/** Where a refund stands, for the clinic: what to do, if anything (a desk payment goes back at the desk). */
const statusText = (refund: RefundDue) =>
  refund.provider === 'desk' && refund.refundStatus === 'due'
    ? 'Due: hand it back at the desk, then mark it'
    : STATUS_TEXT[refund.refundStatus];

/** Where a refund made through the payment provider stands. */
const STATUS_TEXT: Record<RefundDue['refundStatus'], string> = {
  due: 'Due: refund it from the payment provider’s dashboard',
  failed: 'Refund failed: refund it another way',
  pending: 'Refund pending',
  succeeded: 'Refunded',
};

/**
 * docs/product-payments.md#refunds (admin): every payment given back or to give back. Cancelled paid bookings
 * and payments that arrive for a booking no longer active are refunded through the provider; the
 * others (already paid, another amount…) and failed refunds are for the clinic to refund by hand.
 */
export function RefundsDuePage() {
  const { data: refunds, error } = useRefundsDue();
  const [news, setNews] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (error) throw error; // the layout's error screen

  async function handBack(refund: RefundDue) {
    setBusy(refund._id);
    try {
      setNews({ text: (await markHandedBack(refund._id)).message, failed: false });
    } catch (cause) {
      setNews({ text: `Not marked: ${errorText(cause)}`, failed: true });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="dashboard-page" aria-labelledby="refunds-title">
      <h1 id="refunds-title">Refunds</h1>
      <p className="refunds__intro">
        Payments given back to patients, those to act on first. A refund that is due or failed is yours to make from the
        payment provider’s dashboard.
      </p>
      <p role="status" className={news?.failed ? 'form-error' : 'refunds__news'}>
        {news?.text}
      </p>
      {!refunds ? (
        <Spinner label="Loading refunds" />
      ) : refunds.length === 0 ? (
        <p className="refunds__empty">No refunds yet.</p>
      ) : (
        <ul className="refunds" aria-label="Refunds">
          {refunds.map((refund) => (
            <li key={refund._id}>
              <article className="refund" aria-labelledby={`refund-${refund._id}`}>
                <h2 id={`refund-${refund._id}`} className="refund__title">
                  {amountOf(refund)} to {refund.payer ?? refund.patientName ?? refund.email} ({refund.paidWith})
                </h2>
                <p className={`refund__status refund__status--${refund.refundStatus}`}>{statusText(refund)}</p>
                {refund.provider === 'desk' && refund.refundStatus === 'due' && (
                  <button
                    type="button"
                    className="button button--small"
                    disabled={busy === refund._id}
                    onClick={() => void handBack(refund)}
                  >
                    Mark {amountOf(refund)} handed back
                  </button>
                )}
                <p className="refund__reason">
                  {refund.reason}
                  {refund.failure && `. ${refund.failure}`}
                </p>
                <dl className="refund__facts">
                  <div>
                    <dt>Whose visit</dt>
                    <dd>
                      {refund.patientName && <span>{refund.patientName} </span>}
                      <span className="refund__email">{refund.email}</span>
                    </dd>
                  </div>
                  <div>
                    <dt>Booking</dt>
                    <dd>
                      {refund.treatment
                        ? `${refund.treatment}, ${refund.appointmentDate} at ${refund.slot} (${refund.bookingStatus})`
                        : 'No longer on record'}
                    </dd>
                  </div>
                  <div>
                    <dt>Paid</dt>
                    <dd>
                      <time dateTime={refund.paidAt}>{format(new Date(refund.paidAt), 'PP, p')}</time>
                    </dd>
                  </div>
                  <div>
                    <dt>Transaction</dt>
                    <dd className="refund__transaction">{refund.transactionId}</dd>
                  </div>
                </dl>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
