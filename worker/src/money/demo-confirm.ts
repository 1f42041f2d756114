/**
 * The demo provider's confirmations (POST /api/demo-payments/confirm), only while no Stripe key is
 * configured: a booking's or a family visit's payment, a fee's payment through its pay link, and a
 * card saved for later (a setup). Each follows Stripe's test cards and ends in the same recording
 * path as Stripe's webhook.
 */

import type { ConfirmedPayment, DemoConfirmation } from '../../../contract/payments.ts';
import type { CardSaved } from '../../../contract/saved-cards.ts';
import { RELEASED_MESSAGE } from '../booking/bookings.ts';
import { bookingsOfFamilyIntent, bookingToPay, type PayableBookingRow } from '../booking/data/bookings.ts';
import { callerOf } from '../people/auth.ts';
import type { User } from '../people/data/users.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { saveCard } from './cards.ts';
import { feeOfDemoIntent } from './data/fees.ts';
import {
  type CardDecision,
  decideDemoCard,
  demoCardOf,
  demoPaymentMethodId,
  verifyDemoSecret,
} from './demo-provider.ts';
import { recordFeePaid } from './fees.ts';
import { familyLines } from './payments.ts';
import { type PaymentOutcome, recordOutcome } from './record.ts';

/** A card the demo refused, answered as Stripe.js would show it. */
const refused = (decision: Exclude<CardDecision, { ok: true }>) =>
  json(
    { acknowledged: false, message: decision.message, code: decision.code, declineCode: decision.declineCode ?? null },
    decision.status,
  );

/**
 * POST /api/demo-payments/confirm: the demo provider's card charge, only while no Stripe key is
 * configured. Follows Stripe's test cards and ends in the same recording path as the webhook.
 */
export async function confirmDemoPayment(request: Request, env: Env): Promise<Response> {
  if (env.STRIPE_SECRET_KEY) throw new HttpError(404, 'Demo payments are off: Stripe is configured');
  const user = callerOf(request);
  const body = inputOf(request, 'POST /demo-payments/confirm').body;
  const intentId = await verifyDemoSecret(env, body.clientSecret);
  if (!intentId) throw new HttpError(400, 'This payment is not valid; reload the page and try again');
  if (intentId.startsWith('seti_')) return confirmSetup(env, user, intentId, body);
  const fee = await feeOfDemoIntent(env.DB, intentId);
  if (fee) return confirmFee(env, user, fee, intentId, body);
  // Like Stripe, the demo charges the card even if the booking was cancelled after the payment
  // page opened; recording the payment then flags it for a refund.
  const single = await bookingToPay(env.DB, 'payment_intent_id', intentId, clock());
  const bookings = single ? [single] : await familyOfIntent(env, intentId);
  if (bookings.some((booking) => booking.account_id !== user.id)) throw new HttpError(403, 'This booking is not yours');
  // A booking released for non-payment is not charged: the patient books again.
  if (bookings.every((booking) => booking.released)) throw new HttpError(410, RELEASED_MESSAGE);
  if (bookings.every((booking) => booking.paid)) throw new HttpError(409, 'This booking is already paid');

  const decision = decideDemoCard(body.card);
  const ids = bookings.map((booking) => booking.id);
  if (!decision.ok) {
    if (decision.status === 402) {
      await recordOutcome(env, { kind: 'failed', bookingIds: ids, message: decision.message }, user);
    }
    return refused(decision);
  }
  const amountCents = bookings.reduce((sum, booking) => sum + booking.due_cents, 0);
  const card = demoCardOf(body.card);
  const outcome: PaymentOutcome | null = single
    ? {
        kind: 'succeeded',
        bookingId: single.id,
        transactionId: intentId,
        amountCents,
        currency: 'usd',
        provider: 'demo',
        card,
      }
    : await familyLines(
        env,
        {
          id: intentId,
          status: 'succeeded',
          amountCents,
          currency: 'usd',
          bookingIds: ids,
          familyVisitId: null,
          clientSecret: undefined,
          card,
        },
        'demo',
      );
  if (outcome) await recordOutcome(env, outcome, user);
  return json({
    paymentIntent: { id: intentId, status: 'succeeded', amount: amountCents / 100 },
  } satisfies ConfirmedPayment);
}

/** The bookings waiting for the lines of a family visit's demo payment `intentId` (404 when there are none). */
async function familyOfIntent(env: Env, intentId: string): Promise<PayableBookingRow[]> {
  const now = clock();
  const waiting = await bookingsOfFamilyIntent(env.DB, intentId);
  const rows = await Promise.all(waiting.map((booking) => bookingToPay(env.DB, 'id', booking.id, now)));
  const bookings = rows.filter((row): row is PayableBookingRow => row !== null);
  if (bookings.length === 0) throw new HttpError(404, 'No such booking');
  return bookings;
}

/** A card saved for later: its setup must be the caller's; the card is kept by its setup, once. */
async function confirmSetup(env: Env, user: User, setupId: string, body: DemoConfirmation): Promise<Response> {
  const decision = decideDemoCard(body.card, clock(), 'setup');
  if (!decision.ok) return refused(decision);
  const year = body.card.expYear < 100 ? 2000 + body.card.expYear : body.card.expYear;
  const card = await saveCard(env, user, setupId, {
    paymentMethodId: demoPaymentMethodId(body.card),
    provider: 'demo',
    ...demoCardOf(body.card),
    expMonth: body.card.expMonth,
    expYear: year,
  });
  return json({ setupIntent: { id: setupId, status: 'succeeded' }, card } satisfies CardSaved);
}

/** An unpaid fee paid through its pay link, by the account it belongs to. */
async function confirmFee(
  env: Env,
  user: User,
  fee: NonNullable<Awaited<ReturnType<typeof feeOfDemoIntent>>>,
  intentId: string,
  body: DemoConfirmation,
): Promise<Response> {
  if (fee.account_id !== user.id) throw new HttpError(404, 'No such fee');
  if (fee.status !== 'unpaid') throw new HttpError(409, 'This fee has nothing left to pay');
  const decision = decideDemoCard(body.card);
  if (!decision.ok) return refused(decision);
  await recordFeePaid(env, fee, { provider: 'demo', transactionId: intentId, card: demoCardOf(body.card) }, user);
  return json({
    paymentIntent: { id: intentId, status: 'succeeded', amount: fee.amount_cents / 100 },
  } satisfies ConfirmedPayment);
}
