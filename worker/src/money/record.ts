import type { RefundState } from '../../../contract/payments.ts';
import { bookingName } from '../booking/data/bookings.ts';
import { paidEvent, paidStatement, paymentFailedStatement } from '../booking/engine/marks.ts';
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
  /** One payment of a family visit: a line per member's booking, recorded in one batch. */
  | { kind: 'lines'; lines: SucceededPayment[] }
  | { kind: 'failed'; bookingIds: string[]; message: string };

type StripeEventSeen = { id: string; type: string; created: number };

export interface Recorded {
  /** The event was handled before: nothing changed. */
  duplicate: boolean;
  /**
   * Set when the payment (or a line of it) was recorded only to be given back: why, as a code and
   * in plain words, and where its refund stands (a payment for a booking no longer active is
   * refunded at once).
   */
  refund: { reason: RefundReason; text: string; state: RefundState | null } | null;
}

/** The statements recording one payment (or one line of a family visit's): see recordOutcome. */
async function paymentStatements(env: Env, payment: SucceededPayment, actor: Actor): Promise<D1PreparedStatement[]> {
  const db = env.DB;
  const target = { type: 'booking', id: payment.bookingId, name: bookingName(payment.bookingId) } as const;
  const money = {
    transactionId: payment.intentId ?? payment.transactionId,
    amount: payment.amountCents / 100,
    currency: payment.currency,
    ...(payment.method ? { method: payment.method === 'cash' ? 'cash at the desk' : 'card at the desk' } : {}),
  };
  const owedBack = refundDueOf(payment.transactionId);
  return [
    insertPayment(db, payment),
    auditEntry(
      db,
      { actor, action: 'payment.refund_due', target, after: { ...money, refundReason: owedBack.reason } },
      (param) => `${IF_CHANGED(param)} AND ${owedBack.isDue(param)}`,
    ),
    await paidStatement(env, payment.bookingId, payment.transactionId),
    paidEvent(env, payment.bookingId, payment.transactionId, actor),
    auditEntry(
      db,
      { actor, action: 'payment.succeeded', target, before: { paid: false }, after: { paid: true, ...money } },
      IF_CHANGED,
    ),
    paymentStateQuery(db, payment.transactionId),
  ];
}

/**
 * The one place a payment's outcome reaches the database, for webhooks, POST /api/payments and
 * the demo provider alike. A succeeded payment is always recorded with its money; it pays the
 * booking only when it is the booking's own intent, for its price, and the booking is active and
 * unpaid. Otherwise it is given back: refunded through the provider when the booking is no longer
 * active (asked right after the batch), else flagged for the clinic. That decision is made inside
 * the one atomic batch, so a cancellation racing the payment cannot slip between a check and the
 * write. A family visit's payment is recorded the same way line by line, all lines in the one
 * batch. With a Stripe event, its id is written in the same batch: a second delivery fails on the
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
  const lines = outcome.kind === 'succeeded' ? [outcome] : outcome.kind === 'lines' ? outcome.lines : [];
  // Where each line's state is read: the last statement of its group.
  const stateAt: number[] = [];
  for (const line of lines) {
    statements.push(...(await paymentStatements(env, line, actor)));
    stateAt.push(statements.length - 1);
  }
  if (outcome.kind === 'failed') {
    for (const bookingId of outcome.bookingIds) {
      const target = { type: 'booking', id: bookingId, name: bookingName(bookingId) } as const;
      statements.push(
        paymentFailedStatement(env, bookingId, outcome.message),
        auditEntry(
          db,
          { actor, action: 'payment.failed', target, after: { paymentError: outcome.message } },
          IF_CHANGED,
        ),
      );
    }
  }
  let results: D1Result[];
  try {
    results = await db.batch(statements);
  } catch (error) {
    if (event && violates(error, STRIPE_EVENT_ONCE)) return { duplicate: true, refund: null };
    throw error;
  }
  const states = stateAt.map((at) => results[at]?.results[0] as PaymentStateRow | undefined);
  const owed = states.findIndex((row) => row?.refund_reason);
  const row = states[owed];
  const line = lines[owed];
  if (!row?.refund_reason || !line) return { duplicate: false, refund: null };
  for (const [i, each] of lines.entries()) {
    if (states[i]?.refund_status === 'pending') await sendRefunds(env, { transactionId: each.transactionId });
  }
  return {
    duplicate: false,
    refund: {
      reason: row.refund_reason,
      text: refundReasonText(row.refund_reason, row.status),
      state: await refundStateNow(env, line.transactionId),
    },
  };
}

/**
 * A refund's webhook (refund.created, refund.updated, refund.failed, charge.refunded), for the
 * payment or the family visit's lines it concerns: each state moves forward only, in the batch that records the event's id, so a duplicated or reordered
 * delivery changes nothing twice and never takes a refund back to pending.
 */
export async function recordRefundEvent(
  env: Env,
  updates: RefundUpdate[],
  event: StripeEventSeen,
): Promise<{ duplicate: boolean; changed: boolean }> {
  try {
    const statements = updates.map((update) => advanceRefund(env.DB, update, { system: 'stripe' }));
    const results = await env.DB.batch([recordStripeEvent(env.DB, event), ...statements.flat()]);
    // A refund's audit row is written only when its state moves: any change is a move.
    return { duplicate: false, changed: results.slice(1).some((result) => result.meta.changes > 0) };
  } catch (error) {
    if (violates(error, STRIPE_EVENT_ONCE)) return { duplicate: true, changed: false };
    throw error;
  }
}
