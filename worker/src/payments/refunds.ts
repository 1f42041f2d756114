import type { RefundState } from '../../../contract/payments.ts';
import {
  advanceRefund,
  type RefundToSend,
  refundPaymentOfCancelledBooking,
  refundStateOf,
  refundsToSend,
} from '../data/payments.ts';
import type { Env } from '../env.ts';
import { providerOf } from './choose-provider.ts';

/**
 * The idempotency key of a refund: `refund:<booking id>` for the payment a booking waited for (the
 * one refunded when it is cancelled, or that arrived after); another payment of the booking gets its own.
 */
export function refundKey(payment: RefundToSend): string {
  if (!payment.booking_id) return `refund:${payment.transaction_id}`;
  return payment.booking_intent === payment.transaction_id
    ? `refund:${payment.booking_id}`
    : `refund:${payment.booking_id}:${payment.transaction_id}`;
}

/**
 * Asks the provider for every refund asked for and not yet answered (of one booking, one payment,
 * or all), and records each answer, moving the refund's state forward only. A provider out of reach
 * leaves the refund pending: the Cron Trigger's sweep asks again, with the same idempotency key, so
 * the money goes back once. Answers how many the provider answered.
 */
export async function sendRefunds(
  env: Env,
  only: { bookingId: string } | { transactionId: string } | 'all',
): Promise<number> {
  let answered = 0;
  for (const payment of await refundsToSend(env.DB, only)) {
    const provider = providerOf(env, payment.provider);
    if (!provider) {
      console.error('refund waits: its provider is not configured', payment.provider, payment.transaction_id);
      continue;
    }
    try {
      const answer = await provider.refund({
        transactionId: payment.transaction_id,
        amountCents: payment.amount_cents,
        bookingId: payment.booking_id,
        idempotencyKey: refundKey(payment),
      });
      await advanceRefund(env.DB, {
        transactionId: payment.transaction_id,
        status: answer.status,
        refundId: answer.id,
        amountCents: null,
        failure: answer.failure,
      }).run();
      answered += 1;
    } catch (error) {
      console.error('refund not sent; the next sweep asks again', payment.transaction_id, error);
    }
  }
  return answered;
}

/** Where a payment's refund stands now (null: nothing given back). */
export async function refundStateNow(env: Env, transactionId: string): Promise<RefundState | null> {
  const row = await refundStateOf(env.DB, transactionId);
  if (!row?.refund_status) return null;
  return { status: row.refund_status, amount: (row.refund_amount_cents ?? 0) / 100, currency: row.currency };
}

/**
 * The refund of a paid booking being cancelled: `statements` go in the cancelling batch, after the
 * cancellation (they put the payment that paid it up for a full refund, once); `settle` takes their
 * results, asks the provider and answers where the refund stands (null: nothing was refunded now).
 */
export function refundOfCancelledBooking(env: Env, bookingId: string) {
  return {
    statements: [refundPaymentOfCancelledBooking(env.DB, bookingId)],
    async settle(results: D1Result[]): Promise<RefundState | null> {
      const transactionId = (results[0]?.results[0] as { transaction_id?: string } | undefined)?.transaction_id;
      if (!transactionId) return null;
      await sendRefunds(env, { transactionId });
      return refundStateNow(env, transactionId);
    },
  };
}
