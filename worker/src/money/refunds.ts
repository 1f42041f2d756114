import type { RefundHandedBack, RefundState } from '../../../contract/payments.ts';
import { bookingName } from '../booking/data/bookings.ts';
import { money } from '../messages/mail-compose.ts';
import { callerOf } from '../people/auth.ts';
import { type Actor, auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { providerOf } from './choose-provider.ts';
import {
  advanceRefund,
  lateFailingDemoRefunds,
  type RefundToSend,
  refundPaymentOfCancelledBooking,
  refundStateOf,
  refundsDue,
  refundsToSend,
} from './data/payments.ts';
import { refundFailureText } from './provider.ts';

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
        transactionId: payment.provider_payment,
        amountCents: payment.amount_cents,
        bookingId: payment.booking_id,
        idempotencyKey: refundKey(payment),
      });
      await env.DB.batch(
        advanceRefund(
          env.DB,
          {
            transactionId: payment.transaction_id,
            status: answer.status,
            refundId: answer.id,
            amountCents: null,
            failure: answer.failure,
          },
          SYSTEM,
        ),
      );
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

/** The provider's answers and the Cron Trigger's sweep move refunds on the system's behalf. */
const SYSTEM: Actor = { system: 'system' };

/**
 * The demo provider's refunds of its late-failing test card fail, as Stripe's do some time after
 * they succeeded (the Cron Trigger's sweep), each with its audit row.
 */
export async function failLateDemoRefunds(env: Env): Promise<void> {
  const failure = refundFailureText('expired_or_canceled_card');
  const late = await lateFailingDemoRefunds(env.DB);
  if (late.length === 0) return;
  await env.DB.batch(
    late.flatMap((transactionId) =>
      advanceRefund(env.DB, { transactionId, status: 'failed', refundId: null, amountCents: null, failure }, SYSTEM),
    ),
  );
}

/**
 * The refund of a paid booking being cancelled by `actor`: `statements` go in the cancelling batch,
 * after the cancellation (they put the payment that paid it up for a full refund, once, with its
 * audit row); `settle` takes their results, asks the provider and answers where the refund stands
 * (null: nothing was refunded now).
 */
export function refundOfCancelledBooking(env: Env, bookingId: string, actor: Actor) {
  return {
    statements: [
      refundPaymentOfCancelledBooking(env.DB, bookingId),
      auditEntry(
        env.DB,
        {
          actor,
          action: 'payment.refund_requested',
          target: { type: 'booking', id: bookingId, name: bookingName(bookingId) },
          before: { refundStatus: null },
          // 'pending' (asked of the provider), or 'due' for a payment taken at the desk (given back there).
          after: {
            refundStatus: (param: (value: unknown) => string) =>
              `(SELECT refund_status FROM payments WHERE booking_id = ${param(bookingId)} AND refund_reason = 'cancelled' ORDER BY refund_updated_at DESC LIMIT 1)`,
            refundReason: 'cancelled',
          },
        },
        IF_CHANGED,
      ),
    ],
    async settle(results: D1Result[]): Promise<RefundState | null> {
      const transactionId = (results[0]?.results[0] as { transaction_id?: string } | undefined)?.transaction_id;
      if (!transactionId) return null;
      await sendRefunds(env, { transactionId });
      return refundStateNow(env, transactionId);
    },
  };
}

/**
 * POST /api/refunds/:id/handed-back (admin): the refund of a payment taken at the desk was handed
 * back there. It leaves the refunds due, and the patient gets the refund notice, once: two staff
 * marking it at once move it once (advanceRefund never moves a refund twice). A payment made through
 * the provider goes back through it (409), as does one that is not to be refunded.
 */
export async function markHandedBack(
  request: Request & { params: Record<string, string> },
  env: Env,
): Promise<Response> {
  const admin = callerOf(request);
  const id = inputOf(request, 'POST /refunds/:id/handed-back').params.id;
  const [payment] = await refundsDue(env.DB, id);
  if (!payment) throw new HttpError(404, 'No refund is due for this payment');
  if (payment.provider !== 'desk') {
    throw new HttpError(
      409,
      'This payment was made online: its refund goes back to the card through the payment provider',
    );
  }
  if (payment.refundStatus === 'due') {
    await env.DB.batch(
      advanceRefund(
        env.DB,
        { transactionId: payment.transactionId, status: 'succeeded', refundId: null, amountCents: null, failure: null },
        admin,
      ),
    );
  }
  const [refund] = await refundsDue(env.DB, id);
  if (!refund) throw new HttpError(404, 'No refund is due for this payment');
  return json({
    acknowledged: true,
    message: `Handed back ${money(Math.round(refund.amount * 100), refund.currency)} to ${refund.payer ?? refund.patientName ?? refund.email}`,
    refund,
  } satisfies RefundHandedBack);
}
