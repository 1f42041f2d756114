import { cardText } from '../../../../../contract/cards.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useClinicInfo } from '../../../lib/clinic-info.ts';
import { errorText } from '../../../lib/error-text.ts';
import { type Translate, useLanguage } from '../../../lib/i18n.tsx';
import { type Receipt, useReceipt } from '../api/get-receipt.ts';

/** e.g. "$150.00" (the receipt shows cents, as a receipt does). */
export const moneyText = (amount: number, currency: string, locale = 'en-US') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(amount);

/** Where the refund stands, in plain words. */
export function refundText(refund: NonNullable<Receipt['refund']>, t: Translate, locale: string): string {
  return t('receipt.refund', { status: refund.status, amount: moneyText(refund.amount, refund.currency, locale) });
}

/**
 * A booking's receipt: what was paid, when, how, and any refund, with a Print button (the print
 * stylesheet prints the receipt alone).
 */
export function ReceiptView({ bookingId }: { bookingId: string }) {
  const clinic = useClinicInfo();
  const { data: receipt, error } = useReceipt(bookingId);
  const { t, locale, format } = useLanguage();
  if (error)
    return (
      <p role="alert" className="form-error">
        {t('receipt.loadFailed', { reason: errorText(error, t) })}
      </p>
    );
  if (!receipt) return <Spinner label={t('receipt.loading')} />;
  const titleId = `receipt-${receipt.bookingId}`;
  return (
    <article className="receipt" aria-labelledby={titleId}>
      <h2 id={titleId} className="receipt__title">
        {t('mine.receipt')}
      </h2>
      <p className="receipt__clinic">{clinic.name}</p>
      <dl className="receipt__facts">
        <div>
          <dt>{t('receipt.treatment')}</dt>
          <dd>{receipt.treatment}</dd>
        </div>
        <div>
          <dt>{t('mine.appointment')}</dt>
          <dd>
            {t('receipt.when', {
              day: receipt.appointmentDate,
              slot: receipt.slot,
              cancelled: receipt.bookingStatus === 'cancelled' ? 'yes' : 'no',
            })}
          </dd>
        </div>
        <div>
          <dt>{t('receipt.patient')}</dt>
          <dd>
            {receipt.patientName}, <span className="receipt__wrap">{receipt.email}</span>
          </dd>
        </div>
        <div>
          <dt>{t('receipt.amount')}</dt>
          <dd>{moneyText(receipt.amount, receipt.currency, locale)}</dd>
        </div>
        <div>
          <dt>{t('receipt.paidOn')}</dt>
          <dd>
            <time dateTime={receipt.paidAt}>{format.moment(new Date(receipt.paidAt))}</time>
          </dd>
        </div>
        {receipt.method && (
          <div>
            <dt>{t('receipt.paidAt')}</dt>
            <dd>{t('receipt.desk', { method: receipt.method })}</dd>
          </div>
        )}
        {receipt.card && (
          <div>
            <dt>{t('card.card')}</dt>
            <dd>{cardText(receipt.card)}</dd>
          </div>
        )}
        <div>
          <dt>{t('receipt.transaction')}</dt>
          <dd className="receipt__wrap receipt__mono">{receipt.transactionId}</dd>
        </div>
        {receipt.refund && (
          <div>
            <dt>{t('receipt.refundTitle')}</dt>
            <dd className="receipt__refund">{refundText(receipt.refund, t, locale)}</dd>
          </div>
        )}
      </dl>
      <button type="button" className="button button--small receipt__print" onClick={() => window.print()}>
        {t('receipt.print')}
      </button>
    </article>
  );
}
