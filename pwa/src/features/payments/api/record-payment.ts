import type { PaymentRecord, RecordedPayment } from '../../../../../contract/payments.ts';
import { api } from '../../../lib/api.ts';

/** POST /api/payments: the Worker checks the payment with the provider before it records it (idempotent). */
export function recordPayment(record: PaymentRecord): Promise<RecordedPayment> {
  return api('/payments', { method: 'POST', body: JSON.stringify(record) });
}
