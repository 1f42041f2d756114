import type { Env } from '../env.ts';

export type PaymentOutcome =
  | { kind: 'succeeded'; bookingId: string; transactionId: string; amountCents: number; provider: 'stripe' | 'demo' }
  | { kind: 'failed'; bookingId: string; message: string };

/**
 * The one place a payment's outcome reaches the database, for webhooks, POST /api/payments and
 * the demo provider alike. With a Stripe event, its id is written in the same atomic batch: a
 * second delivery fails on the primary key and changes nothing. A failure never un-pays a
 * booking, so out-of-order deliveries end in the right state.
 */
export async function recordOutcome(
  env: Env,
  outcome: PaymentOutcome,
  event?: { id: string; type: string; created: number },
): Promise<'applied' | 'duplicate'> {
  const statements: D1PreparedStatement[] = [];
  if (event) {
    statements.push(
      env.DB.prepare('INSERT INTO stripe_events (id, type, created) VALUES (?1, ?2, ?3)').bind(event.id, event.type, event.created),
    );
  }
  if (outcome.kind === 'succeeded') {
    statements.push(
      env.DB.prepare(
        `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider)
         SELECT ?1, ?2, b.id, b.email, ?3, ?4 FROM bookings b WHERE b.id = ?5 AND b.paid = 0
         ON CONFLICT DO NOTHING`,
      ).bind(crypto.randomUUID(), outcome.transactionId, outcome.amountCents, outcome.provider, outcome.bookingId),
      env.DB.prepare(
        `UPDATE bookings SET paid = 1, payment_error = NULL, payment_intent_id = coalesce(payment_intent_id, ?2)
         WHERE id = ?1`,
      ).bind(outcome.bookingId, outcome.transactionId),
    );
  } else {
    statements.push(
      env.DB.prepare('UPDATE bookings SET payment_error = ?2 WHERE id = ?1 AND paid = 0').bind(outcome.bookingId, outcome.message),
    );
  }
  try {
    await env.DB.batch(statements);
    return 'applied';
  } catch (error) {
    if (event && String(error).includes('stripe_events.id')) return 'duplicate';
    throw error;
  }
}
