import { format } from 'date-fns/format';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { type RefundDue, useRefundsDue } from '../api/get-refunds-due.ts';
import './refunds.css';

const amountOf = (refund: RefundDue) =>
  refund.currency === 'usd'
    ? formatPrice(refund.amount)
    : `${refund.amount.toFixed(2)} ${refund.currency.toUpperCase()}`;

/**
 * Refunds due (admin): payments the provider confirmed for bookings they could not pay (cancelled
 * or released meanwhile, already paid…). The clinic refunds each from the provider's dashboard.
 */
export function RefundsDuePage() {
  const { data: refunds, error } = useRefundsDue();
  if (error) throw error; // the layout's error screen

  return (
    <section className="dashboard-page" aria-labelledby="refunds-title">
      <h1 id="refunds-title">Refunds due</h1>
      <p className="refunds__intro">
        Payments that arrived for a booking they could not pay. Refund each one to the patient from the payment
        provider’s dashboard.
      </p>
      {!refunds ? (
        <Spinner label="Loading refunds" />
      ) : refunds.length === 0 ? (
        <p className="refunds__empty">No refunds are due.</p>
      ) : (
        <ul className="refunds" aria-label="Refunds due">
          {refunds.map((refund) => (
            <li key={refund._id}>
              <article className="refund" aria-labelledby={`refund-${refund._id}`}>
                <h2 id={`refund-${refund._id}`} className="refund__title">
                  {amountOf(refund)} to {refund.patientName ?? refund.email}
                </h2>
                <p className="refund__reason">{refund.reason}</p>
                <dl className="refund__facts">
                  <div>
                    <dt>Patient</dt>
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
