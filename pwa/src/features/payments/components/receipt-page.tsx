import { useParams } from 'wouter';
import { BackToAppointments } from '../../../components/payment-form-parts.tsx';
import { ReceiptView } from './receipt.tsx';
import '../payments.css';

/** /dashboard/receipt/:id (signed in): a paid booking's receipt, printable; a cancelled one's shows its refund. */
export function ReceiptPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <section className="dashboard-page receipt-page" aria-labelledby="receipt-page-title">
      <h1 id="receipt-page-title">Your receipt</h1>
      <div className="payment__card">
        <ReceiptView bookingId={id} />
        <BackToAppointments />
      </div>
    </section>
  );
}
