import { useParams } from 'wouter';
import { BackToAppointments } from '../../../components/payment-form-parts.tsx';
import { ReceiptView } from './receipt.tsx';
import '../payments.css';
import { useT } from '../../../lib/i18n.tsx';

/** /dashboard/receipt/:id (signed in): a paid booking's receipt, printable; a cancelled one's shows its refund. */
export function ReceiptPage() {
  const { id } = useParams<{ id: string }>();
  const t = useT();
  return (
    <section className="dashboard-page receipt-page" aria-labelledby="receipt-page-title">
      <h1 id="receipt-page-title">{t('receipt.yours')}</h1>
      <div className="payment__card">
        <ReceiptView bookingId={id} />
        <BackToAppointments />
      </div>
    </section>
  );
}
