import { useParams } from 'wouter';

/** /dashboard/payment/:id (signed in). The card form comes with the payments issue. */
export function PaymentPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <section className="dashboard-page">
      <h1>Payment</h1>
      <p>Payment for booking {id} will be taken here.</p>
    </section>
  );
}
