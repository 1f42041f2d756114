import type { PaymentRecord, RecordedPayment } from '../../../../../contract/payments.ts';
import { client } from '../../../lib/client.ts';

/** POST /api/payments: the Worker checks the payment with the provider before it records it (idempotent). */
export function recordPayment(record: PaymentRecord): Promise<RecordedPayment> {
  return client('POST /payments', { body: record });
}
