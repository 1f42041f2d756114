import { api } from '../../../lib/api.ts';

export type PaymentRecord = { transactionId: string; price: number; email: string; bookingId: string };

/**
 * The Worker's answer. `refundDue`: the money arrived but cannot pay the booking (cancelled
 * meanwhile, already paid…); it is recorded for a refund and `message` says so in plain words.
 */
export type RecordedPayment = { acknowledged: boolean; insertedId: string; message: string; refundDue?: boolean };

/** POST /api/payments: the Worker checks the payment with the provider before it records it (idempotent). */
export function recordPayment(record: PaymentRecord): Promise<RecordedPayment> {
  return api('/payments', { method: 'POST', body: JSON.stringify(record) });
}
