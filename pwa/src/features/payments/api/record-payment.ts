import { api } from '../../../lib/api.ts';

export type PaymentRecord = { transactionId: string; price: number; email: string; bookingId: string };

/** POST /api/payments: the Worker checks the payment with the provider before it records it (idempotent). */
export function recordPayment(record: PaymentRecord): Promise<{ acknowledged: boolean; insertedId: string; message: string }> {
  return api('/payments', { method: 'POST', body: JSON.stringify(record) });
}
