import { format } from 'date-fns/format';
import { cardText } from '../../../../../contract/cards.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useClinicInfo } from '../../../lib/clinic-info.ts';
import { errorText } from '../../../lib/error-text.ts';
import { type Receipt, useReceipt } from '../api/get-receipt.ts';

/** e.g. "$150.00" (the receipt shows cents, as a receipt does). */
export const moneyText = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount);

/** Where the refund stands, in plain words. */
export function refundText(refund: NonNullable<Receipt['refund']>): string {
  const amount = moneyText(refund.amount, refund.currency);
  switch (refund.status) {
    case 'succeeded':
      return `${amount} refunded to your card`;
    case 'pending':
      return `${amount} is being refunded to your card`;
    case 'due':
      return `${amount} will be refunded by the clinic`;
    case 'failed':
      return `The refund of ${amount} did not go through; the clinic will contact you`;
  }
}

/**
 * A booking's receipt: what was paid, when, how, and any refund, with a Print button (the print
 * stylesheet prints the receipt alone).
 */
export function ReceiptView({ bookingId }: { bookingId: string }) {
  const clinic = useClinicInfo();
  const { data: receipt, error } = useReceipt(bookingId);
  if (error)
    return (
      <p role="alert" className="form-error">
        The receipt could not be loaded: {errorText(error)}
      </p>
    );
  if (!receipt) return <Spinner label="Loading the receipt" />;
  const titleId = `receipt-${receipt.bookingId}`;
  return (
    <article className="receipt" aria-labelledby={titleId}>
      <h2 id={titleId} className="receipt__title">
        Receipt
      </h2>
      <p className="receipt__clinic">{clinic.name}</p>
      <dl className="receipt__facts">
        <div>
          <dt>Treatment</dt>
          <dd>{receipt.treatment}</dd>
        </div>
        <div>
          <dt>Appointment</dt>
          <dd>
            {receipt.appointmentDate} at {receipt.slot}
            {receipt.bookingStatus === 'cancelled' && ' (cancelled)'}
          </dd>
        </div>
        <div>
          <dt>Patient</dt>
          <dd>
            {receipt.patientName}, <span className="receipt__wrap">{receipt.email}</span>
          </dd>
        </div>
        <div>
          <dt>Amount paid</dt>
          <dd>{moneyText(receipt.amount, receipt.currency)}</dd>
        </div>
        <div>
          <dt>Paid on</dt>
          <dd>
            <time dateTime={receipt.paidAt}>{format(new Date(receipt.paidAt), 'PP, p')}</time>
          </dd>
        </div>
        {receipt.method && (
          <div>
            <dt>Paid at</dt>
            <dd>The clinic’s desk, {receipt.method === 'cash' ? 'in cash' : 'by card'}</dd>
          </div>
        )}
        {receipt.card && (
          <div>
            <dt>Card</dt>
            <dd>{cardText(receipt.card)}</dd>
          </div>
        )}
        <div>
          <dt>Transaction id</dt>
          <dd className="receipt__wrap receipt__mono">{receipt.transactionId}</dd>
        </div>
        {receipt.refund && (
          <div>
            <dt>Refund</dt>
            <dd className="receipt__refund">{refundText(receipt.refund)}</dd>
          </div>
        )}
      </dl>
      <button type="button" className="button button--small receipt__print" onClick={() => window.print()}>
        Print receipt
      </button>
    </article>
  );
}
