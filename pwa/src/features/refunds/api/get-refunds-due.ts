import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { REFUNDS_KEY } from '../../../lib/cache-keys.ts';

/** A payment the clinic owes back, as GET /api/refunds answers it; `amount` in the currency's units. */
export type RefundDue = {
  _id: string;
  transactionId: string;
  provider: string;
  amount: number;
  currency: string;
  /** When the payment was recorded (ISO 8601, UTC). */
  paidAt: string;
  refundStatus: string;
  /** Why it cannot pay its booking, in plain words. */
  reason: string;
  patientName: string | null;
  email: string;
  bookingId: string | null;
  treatment: string | null;
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: string | null;
  slot: string | null;
  bookingStatus: string | null;
};

/** GET /api/refunds (admin): payments flagged for a refund, oldest first. */
export function useRefundsDue() {
  return useSWR<RefundDue[]>(REFUNDS_KEY, apiFetcher<RefundDue[]>);
}
