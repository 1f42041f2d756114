import { markBookingPaid, notePaymentFailure } from '../data/bookings.ts';
import type { Env } from '../env.ts';

export type PaymentOutcome =
  | {
      kind: 'succeeded';
      bookingId: string;
      transactionId: string;
      amountCents: number;
      currency: string;
      provider: 'stripe' | 'demo';
    }
  | { kind: 'failed'; bookingId: string; message: string };

/** Why a recorded payment is owed back (payments.refund_reason). */
export type RefundReason = 'booking_not_active' | 'already_paid' | 'amount_differs' | 'other_intent';

interface PaymentState {
  refund_reason: RefundReason | null;
  status: string | null;
}

export interface Recorded {
  /** The event was handled before: nothing changed. */
  duplicate: boolean;
  /** Set when the payment was recorded only to be refunded: why, as a code and in plain words. */
  refund: { reason: RefundReason; text: string } | null;
}

/**
 * The one place a payment's outcome reaches the database, for webhooks, POST /api/payments and
 * the demo provider alike. A succeeded payment is always recorded with its money; it pays the
 * booking only when it is the booking's own intent, for its price, and the booking is active and
 * unpaid. Otherwise it is flagged for a refund. That decision is made inside the one atomic batch,
 * so a cancellation racing the payment cannot slip between a check and the write. With a Stripe
 * event, its id is written in the same batch: a second delivery fails on the primary key and
 * changes nothing. A failure never un-pays a booking, so out-of-order deliveries end right.
 */
export async function recordOutcome(
  env: Env,
  outcome: PaymentOutcome,
  event?: { id: string; type: string; created: number },
): Promise<Recorded> {
  const statements: D1PreparedStatement[] = [];
  if (event) {
    statements.push(
      env.DB.prepare('INSERT INTO stripe_events (id, type, created) VALUES (?1, ?2, ?3)').bind(event.id, event.type, event.created),
    );
  }
  if (outcome.kind === 'succeeded') {
    statements.push(
      env.DB.prepare(
        `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, currency, provider, refund_status, refund_reason)
         SELECT ?1, ?2, id, email, ?3, ?6, ?4, CASE WHEN reason IS NULL THEN NULL ELSE 'due' END, reason
         FROM (
           SELECT b.id, b.email,
             CASE
               WHEN b.status != 'active' THEN 'booking_not_active'
               WHEN b.paid = 1 THEN 'already_paid'
               WHEN b.price_cents != ?3 OR ?6 != 'usd' THEN 'amount_differs'
               WHEN b.payment_intent_id IS NOT ?2 THEN 'other_intent'
             END AS reason
           FROM bookings b WHERE b.id = ?5
         ) WHERE true
         ON CONFLICT DO NOTHING`,
      ).bind(crypto.randomUUID(), outcome.transactionId, outcome.amountCents, outcome.provider, outcome.bookingId, outcome.currency),
      markBookingPaid(env.DB, outcome.bookingId, outcome.transactionId),
      env.DB.prepare(
        `SELECT p.refund_reason, b.status FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id
         WHERE p.transaction_id = ?1`,
      ).bind(outcome.transactionId),
    );
  } else {
    statements.push(notePaymentFailure(env.DB, outcome.bookingId, outcome.message));
  }
  let results: D1Result[];
  try {
    results = await env.DB.batch(statements);
  } catch (error) {
    if (event && String(error).includes('stripe_events.id')) return { duplicate: true, refund: null };
    throw error;
  }
  const payment = outcome.kind === 'succeeded' ? (results.at(-1)?.results[0] as PaymentState | undefined) : undefined;
  const reason = payment?.refund_reason ?? null;
  return { duplicate: false, refund: reason ? { reason, text: refundReasonText(reason, payment?.status ?? null) } : null };
}

/** The reason in plain words, for the admin and the patient. */
export function refundReasonText(reason: string | null, bookingStatus: string | null): string {
  switch (reason) {
    case 'booking_not_active':
      return bookingStatus && bookingStatus !== 'active'
        ? `The booking was ${bookingStatus} before the payment arrived`
        : 'The booking was no longer active when the payment arrived';
    case 'already_paid':
      return 'The booking was already paid';
    case 'amount_differs':
      return 'The amount paid differs from the booking’s price';
    case 'other_intent':
      return 'The payment is not the one the booking was waiting for';
    default:
      return 'The payment cannot be applied to its booking';
  }
}
