import type { RefundState } from '../../../contract/payments.ts';
import { bookingName } from '../booking/data/bookings.ts';
import { paidStatement, paymentFailedStatement } from '../booking/engine.ts';
import { paymentReceived } from '../messages/messages.ts';
import { type Actor, auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import {
  advanceRefund,
  insertPayment,
  type PaymentStateRow,
  paymentStateQuery,
  type RefundReason,
  type RefundUpdate,
  recordStripeEvent,
  refundDueOf,
  refundReasonText,
  STRIPE_EVENT_ONCE,
  type SucceededPayment,
} from './data/payments.ts';
import { refundStateNow, sendRefunds } from './refunds.ts';

export type PaymentOutcome =
  | ({ kind: 'succeeded' } & SucceededPayment)
  | { kind: 'failed'; bookingId: string; message: string };

type StripeEventSeen = { id: string; type: string; created: number };

export interface Recorded {
  /** The event was handled before: nothing changed. */
  duplicate: boolean;
  /**
   * Set when the payment was recorded only to be given back: why, as a code and in plain words,
   * and where its refund stands (a payment for a booking no longer active is refunded at once).
   */
  refund: { reason: RefundReason; text: string; state: RefundState | null } | null;
}

/**
 * The one place a payment's outcome reaches the database, for webhooks, POST /api/payments and
 * the demo provider alike. A succeeded payment is always recorded with its money; it pays the
 * booking only when it is the booking's own intent, for its price, and the booking is active and
 * unpaid. Otherwise it is given back: refunded through the provider when the booking is no longer
 * active (asked right after the batch), else flagged for the clinic. That decision is made inside
 * the one atomic batch, so a cancellation racing the payment cannot slip between a check and the
 * write. With a Stripe event, its id is written in the same batch: a second delivery fails on the
 * primary key and changes nothing. A failure never un-pays a booking, so out-of-order deliveries end right.
 * Each state change (paid, given back, failed) writes its audit row, by `actor`, in the same batch,
 * right after the statement that makes it and only when that statement changed a row.
 */
export async function recordOutcome(
  env: Env,
  outcome: PaymentOutcome,
  actor: Actor,
  event?: StripeEventSeen,
): Promise<Recorded> {
  const db = env.DB;
  const statements: D1PreparedStatement[] = event ? [recordStripeEvent(db, event)] : [];
  const target = { type: 'booking', id: outcome.bookingId, name: bookingName(outcome.bookingId) } as const;
  if (outcome.kind === 'succeeded') {
    const money = {
      transactionId: outcome.transactionId,
      amount: outcome.amountCents / 100,
      currency: outcome.currency,
      ...(outcome.method ? { method: outcome.method === 'cash' ? 'cash at the desk' : 'card at the desk' } : {}),
    };
    const owedBack = refundDueOf(outcome.transactionId);
    statements.push(
      insertPayment(db, outcome),
      auditEntry(
        db,
        { actor, action: 'payment.refund_due', target, after: { ...money, refundReason: owedBack.reason } },
        (param) => `${IF_CHANGED(param)} AND ${owedBack.isDue(param)}`,
      ),
      await paidStatement(env, outcome.bookingId, outcome.transactionId),
      auditEntry(
        db,
        { actor, action: 'payment.succeeded', target, before: { paid: false }, after: { paid: true, ...money } },
        IF_CHANGED,
      ),
      ...paymentReceived(env, outcome.transactionId, new Date()),
      paymentStateQuery(db, outcome.transactionId),
    );
  } else {
    statements.push(
      paymentFailedStatement(env, outcome.bookingId, outcome.message),
      auditEntry(db, { actor, action: 'payment.failed', target, after: { paymentError: outcome.message } }, IF_CHANGED),
    );
  }
  let results: D1Result[];
  try {
    results = await db.batch(statements);
  } catch (error) {
    if (event && violates(error, STRIPE_EVENT_ONCE)) return { duplicate: true, refund: null };
    throw error;
  }
  if (outcome.kind !== 'succeeded') return { duplicate: false, refund: null };
  const payment = results.at(-1)?.results[0] as PaymentStateRow | undefined;
  const reason = payment?.refund_reason ?? null;
  if (!reason) return { duplicate: false, refund: null };
  if (payment?.refund_status === 'pending') await sendRefunds(env, { transactionId: outcome.transactionId });
  return {
    duplicate: false,
    refund: {
      reason,
      text: refundReasonText(reason, payment?.status ?? null),
      state: await refundStateNow(env, outcome.transactionId),
    },
  };
}

/**
 * A refund's webhook (refund.created, refund.updated, refund.failed, charge.refunded): its state
 * moves forward only, in the batch that records the event's id, so a duplicated or reordered
 * delivery changes nothing twice and never takes a refund back to pending.
 */
export async function recordRefundEvent(
  env: Env,
  update: RefundUpdate,
  event: StripeEventSeen,
): Promise<{ duplicate: boolean; changed: boolean }> {
  try {
    const results = await env.DB.batch([
      recordStripeEvent(env.DB, event),
      ...advanceRefund(env.DB, update, { system: 'stripe' }),
    ]);
    return { duplicate: false, changed: (results.at(-1)?.meta.changes ?? 0) > 0 };
  } catch (error) {
    if (violates(error, STRIPE_EVENT_ONCE)) return { duplicate: true, changed: false };
    throw error;
  }
}
