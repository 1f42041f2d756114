import type Stripe from 'stripe';
import type {
  CardProvider,
  DeskPaid,
  PaymentIntentAnswer,
  Receipt,
  RecordedPayment,
  WebhookReceipt,
} from '../../../contract/payments.ts';
import { bookingFor, noteStaffRead } from '../booking/bookings.ts';
import {
  bookingIdIfAny,
  bookingOfIntent,
  bookingsOfFamilyIntent,
  bookingToPay,
  dueOnlineOf,
  familyToPay,
  isFamilyVisitOf,
  type PayableBookingRow,
} from '../booking/data/bookings.ts';
import { rememberIntent } from '../booking/engine/marks.ts';
import { money } from '../messages/mail-compose.ts';
import { callerOf } from '../people/auth.ts';
import { isNoEmailAddress, type User } from '../people/data/users.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readAtMost } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { takeBalance } from './balance.ts';
import { cardSetUp } from './cards.ts';
import { paymentProvider } from './choose-provider.ts';
import { lineId, receiptOf, refundedLines, refundsDue, type SucceededPayment, toReceipt } from './data/payments.ts';
import { feeIntentSucceeded, feePayable } from './fees.ts';
import type { Intent, Payable } from './provider.ts';
import { type PaymentOutcome, type Recorded, recordOutcome, recordRefundEvent } from './record.ts';
import { stripeEvent, toIntent, toRefundAnswer } from './stripe-provider.ts';

type StripeEventSeen = { id: string; type: string; created: number };

/**
 * POST /api/create-payment-intent: the booking's owner gets a client secret; the amount is the
 * booking's, or, for a family visit, the sum of its members' bookings still to pay (one payment,
 * a line per booking).
 */
export async function createPaymentIntent(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const body = inputOf(request, 'POST /create-payment-intent').body;
  const payable = body.feeId
    ? await feePayable(env, user, body.feeId)
    : body.familyVisitId
      ? await familyPayable(env, user, body.familyVisitId)
      : await bookingPayable(env, user, body.bookingId ?? '');
  const provider = paymentProvider(env);
  const intent = await provider.intentFor(payable);
  if (intent.status === 'succeeded') throw new HttpError(409, ALREADY_PAID[payable.kind]);
  if (!intent.clientSecret) throw new Error(`payment intent ${intent.id} came without a client secret`);
  // A booking waits for its intent (a fee's pay link is known by the fee's own id).
  if (payable.kind !== 'fee') {
    await env.DB.batch(
      payable.kind === 'family'
        ? payable.bookingIds.map((id) => rememberIntent(env, id, lineId(intent.id, id)))
        : [rememberIntent(env, payable.id, intent.id)],
    );
  }
  return json({
    clientSecret: intent.clientSecret,
    ...cardProviderOf(env),
    amount: intent.amountCents / 100,
    currency: intent.currency,
  } satisfies PaymentIntentAnswer);
}

/** Which provider takes cards, and Stripe's publishable key for Stripe.js (null with the demo provider). */
function cardProviderOf(env: Env): CardProvider {
  const { name } = paymentProvider(env);
  return { provider: name, publishableKey: name === 'stripe' ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null };
}

/** GET /api/payments/provider (anyone): the provider a payment page draws the card form of before its intent is made. */
export async function getCardProvider(_request: Request, env: Env): Promise<Response> {
  return json(cardProviderOf(env));
}

const ALREADY_PAID = {
  booking: 'This booking is already paid',
  family: 'Every visit of this family visit is paid',
  fee: 'This fee is paid',
} as const;

async function bookingPayable(env: Env, user: User, bookingId: string): Promise<Payable> {
  const booking = await bookingFor(env, user, bookingId, true);
  if (booking.paid) throw new HttpError(409, ALREADY_PAID.booking);
  if (booking.price_cents <= 0) throw new HttpError(400, 'This booking has nothing to pay');
  return {
    kind: 'booking',
    id: booking.id,
    priceCents: booking.deposit_cents ?? booking.price_cents,
    email: booking.email,
    description: booking.treatment,
    paymentIntentId: booking.payment_intent_id,
    bookingIds: [booking.id],
  };
}

/** A family visit of the caller's, its members' bookings still to pay (404 when it is not theirs, 409 when none is). */
async function familyPayable(env: Env, user: User, familyVisitId: string): Promise<Payable> {
  const toPay = await familyToPay(env.DB, user.id, familyVisitId, clock());
  if (toPay.length === 0) {
    if (!(await isFamilyVisitOf(env.DB, user.id, familyVisitId))) throw new HttpError(404, 'No such family visit');
    throw new HttpError(409, ALREADY_PAID.family);
  }
  // The intent handed out before, when every booking still to pay waits for a line of it.
  const intents = new Set(toPay.map((b) => b.payment_intent_id?.slice(0, -(b.id.length + 1)) ?? null));
  const [previous] = intents;
  const samePrevious =
    intents.size === 1 && previous && toPay.every((b) => b.payment_intent_id === lineId(previous, b.id));
  return {
    kind: 'family',
    id: familyVisitId,
    priceCents: toPay.reduce((sum, b) => sum + b.due_cents, 0),
    email: toPay[0]?.email ?? user.email,
    description: `Family visit (${toPay.length} appointments)`,
    paymentIntentId: samePrevious ? previous : null,
    bookingIds: toPay.map((b) => b.id),
  };
}

/**
 * The lines of a family visit's payment `intent`: one per member's booking it names, each for
 * that booking's price. When those do not add up to what was paid (a stale intent), the payment is
 * recorded whole against the first booking instead, for the clinic to give back.
 */
export async function familyLines(
  env: Env,
  intent: Intent,
  provider: SucceededPayment['provider'],
): Promise<PaymentOutcome | null> {
  const prices = await dueOnlineOf(env.DB, intent.bookingIds);
  const [first] = prices;
  if (!first) return null;
  const money = { currency: intent.currency, provider, card: intent.card };
  if (prices.reduce((sum, b) => sum + b.due_cents, 0) !== intent.amountCents) {
    return {
      kind: 'succeeded',
      bookingId: first.id,
      transactionId: intent.id,
      amountCents: intent.amountCents,
      ...money,
    };
  }
  return {
    kind: 'lines',
    lines: prices.map((b) => ({
      transactionId: lineId(intent.id, b.id),
      intentId: intent.id,
      bookingId: b.id,
      amountCents: b.due_cents,
      ...money,
    })),
  };
}

/**
 * A booking of the caller's, active or not (404 / 403 otherwise): a card charged for a booking
 * that was cancelled meanwhile must still be recorded, to be refunded.
 */
async function ownBooking(
  env: Env,
  user: User,
  by: 'id' | 'payment_intent_id',
  value: string,
): Promise<PayableBookingRow> {
  const booking = await bookingToPay(env.DB, by, value, clock());
  if (!booking) throw new HttpError(404, 'No such booking');
  if (booking.account_id !== user.id) throw new HttpError(403, 'This booking is not yours');
  return booking;
}

/** The answer to a recorded payment: plain words when the money is given back, saying where its refund stands. */
function paymentAnswer(recorded: Recorded, payment: Intent): Response {
  if (!recorded.refund)
    return json({ acknowledged: true, insertedId: payment.id, message: 'Payment recorded' } satisfies RecordedPayment);
  const amount = money(payment.amountCents, payment.currency);
  const outcome = {
    succeeded: `${amount} has been refunded to your card.`,
    pending: `${amount} is being refunded to your card.`,
    failed: `The refund to your card did not go through; the clinic will contact you to give back ${amount}.`,
    due: `The clinic will refund ${amount} to your card.`,
  }[recorded.refund.state?.status ?? 'due'];
  return json({
    acknowledged: true,
    insertedId: payment.id,
    refundDue: true,
    message: `${recorded.refund.text}. ${outcome}`,
  } satisfies RecordedPayment);
}

/**
 * POST /api/payments: recorded only after the provider confirms the payment for this very booking
 * (or for a family visit it is part of: a line per member's booking).
 * A payment that cannot pay the booking (cancelled meanwhile, already paid…) is recorded for a refund.
 */
export async function recordPayment(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const body = inputOf(request, 'POST /payments').body;
  const booking = await ownBooking(env, user, 'id', body.bookingId);
  const provider = paymentProvider(env);
  const intent = await provider.retrieve(body.transactionId);
  if (!intent) throw new HttpError(404, 'No such payment');
  if (!intent.bookingIds.includes(booking.id)) throw new HttpError(409, 'This payment belongs to another booking');
  if (intent.status !== 'succeeded') throw new HttpError(402, 'This payment has not succeeded');
  // A family visit's payment: a line for each member's booking it covers.
  const outcome: PaymentOutcome | null = intent.familyVisitId
    ? await familyLines(env, intent, provider.name)
    : {
        kind: 'succeeded',
        bookingId: booking.id,
        transactionId: intent.id,
        amountCents: intent.amountCents,
        currency: intent.currency,
        provider: provider.name,
        card: intent.card,
      };
  if (!outcome) throw new HttpError(404, 'No such payment');
  return paymentAnswer(await recordOutcome(env, outcome, user), intent);
}

const MAX_WEBHOOK_BYTES = 512 * 1024;
/** Webhooks act as the system, in the audit trail's words. */
const STRIPE = { system: 'stripe' } as const;

/** POST /api/stripe/webhook: signed by Stripe; each event changes the database at most once. */
export async function stripeWebhook(request: Request, env: Env): Promise<Response> {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) throw new HttpError(404, 'Stripe is not configured');
  const signature = request.headers.get('Stripe-Signature');
  if (!signature) throw new HttpError(400, 'Missing Stripe-Signature header');
  const payload = new TextDecoder().decode(await readAtMost(request, MAX_WEBHOOK_BYTES));
  let event: Stripe.Event;
  try {
    event = await stripeEvent(env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET, payload, signature);
  } catch {
    throw new HttpError(400, 'Invalid Stripe signature');
  }
  const seen = { id: event.id, type: event.type, created: event.created };
  if (event.type === 'refund.created' || event.type === 'refund.updated' || event.type === 'refund.failed') {
    const refund = event.data.object;
    const transactionId = idOf(refund.payment_intent);
    if (!transactionId)
      return json({ received: true, ignored: 'refund of no payment intent' } satisfies WebhookReceipt);
    const answer = toRefundAnswer(event.type === 'refund.failed' ? { ...refund, status: 'failed' } : refund);
    // A family visit's payment is refunded line by line: the refund names its member's booking.
    const lines = await refundedLines(env.DB, transactionId, refund.metadata?.bookingId ?? null);
    const { duplicate } = await recordRefundEvent(
      env,
      lines.map((line) => ({
        transactionId: line,
        status: answer.status,
        refundId: refund.id,
        amountCents: refund.amount,
        failure: answer.failure,
      })),
      seen,
    );
    return json({ received: true, duplicate } satisfies WebhookReceipt);
  }
  if (event.type === 'charge.refunded') {
    // The charge is refunded in full (the clinic only refunds in full; a partial refund is someone else's doing).
    const charge = event.data.object;
    const transactionId = idOf(charge.payment_intent);
    if (!transactionId || !charge.refunded) {
      return json({ received: true, ignored: 'not a full refund of a payment intent' } satisfies WebhookReceipt);
    }
    // A family visit's payment refunded in full: every line of it.
    const lines = await refundedLines(env.DB, transactionId, null);
    const { duplicate } = await recordRefundEvent(
      env,
      lines.map((line) => ({
        transactionId: line,
        status: 'succeeded' as const,
        refundId: null,
        amountCents: lines.length === 1 ? charge.amount_refunded : null,
        failure: null,
      })),
      seen,
    );
    return json({ received: true, duplicate } satisfies WebhookReceipt);
  }
  if (event.type === 'setup_intent.succeeded') {
    const saved = await cardSetUp(env, event.data.object);
    return json({ received: true, ...(saved ? {} : { ignored: 'not a card setup of ours' }) } satisfies WebhookReceipt);
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return json({ received: true, ignored: event.type } satisfies WebhookReceipt);
  }
  const intent = toIntent(event.data.object);
  if (event.data.object.metadata?.feeId) {
    // A fee's pay link: paid once; its failure leaves the fee unpaid, as it was.
    const paid =
      event.type === 'payment_intent.succeeded' ? await feeIntentSucceeded(env, event.data.object, intent.card) : null;
    return json({
      received: true,
      ...(paid === null ? { ignored: 'not a fee of ours' } : { duplicate: !paid }),
    } satisfies WebhookReceipt);
  }
  const recorded = intent.familyVisitId
    ? await familyIntentEvent(env, event, intent, seen)
    : await bookingIntentEvent(env, event, intent, seen);
  if (!recorded) return json({ received: true, ignored: 'not a payment of a known booking' } satisfies WebhookReceipt);
  return json({
    received: true,
    duplicate: recorded.duplicate,
    ...(recorded.refund ? { refundDue: true as const } : {}),
  } satisfies WebhookReceipt);
}

/** A payment intent's success or failure, for the booking it was handed out for; null: for no known booking. */
async function bookingIntentEvent(
  env: Env,
  event: Stripe.Event,
  intent: Intent,
  seen: StripeEventSeen,
): Promise<Recorded | null> {
  // The booking this intent was handed out for, by the intent id stored on it.
  const owner = (await bookingOfIntent(env.DB, intent.id))?.id ?? null;
  if (event.type === 'payment_intent.succeeded') {
    // Money taken for one of our bookings through an intent it no longer waits for is still
    // recorded (and flagged for a refund): the metadata names the booking, the stored id decides.
    const named = intent.bookingIds[0];
    const bookingId = owner ?? (named ? await bookingIdIfAny(env.DB, named) : null);
    if (!bookingId) {
      console.error('payment for no known booking', intent.id, named);
      return null;
    }
    const payment = {
      bookingId,
      transactionId: intent.id,
      amountCents: intent.amountCents,
      currency: intent.currency,
      provider: 'stripe' as const,
    };
    return recordOutcome(env, { kind: 'succeeded', ...payment }, STRIPE, seen);
  }
  // A failure matters only to the booking that waits for this very intent.
  if (!owner) return null;
  return recordOutcome(env, { kind: 'failed', bookingIds: [owner], message: failureOf(event) }, STRIPE, seen);
}

/** A family visit's payment intent: its success records a line per member's booking; its failure is noted on each. */
async function familyIntentEvent(
  env: Env,
  event: Stripe.Event,
  intent: Intent,
  seen: StripeEventSeen,
): Promise<Recorded | null> {
  if (event.type === 'payment_intent.succeeded') {
    const lines = await familyLines(env, intent, 'stripe');
    return lines ? recordOutcome(env, lines, STRIPE, seen) : null;
  }
  const waiting = (await bookingsOfFamilyIntent(env.DB, intent.id)).map((b) => b.id);
  if (waiting.length === 0) return null;
  return recordOutcome(env, { kind: 'failed', bookingIds: waiting, message: failureOf(event) }, STRIPE, seen);
}

const failureOf = (event: Stripe.Event) =>
  (event.data.object as Stripe.PaymentIntent).last_payment_error?.message ?? 'The payment failed';

/** GET /api/refunds (admin): payments given back or to give back, those the clinic must act on first. */
export async function listRefundsDue(_request: Request, env: Env): Promise<Response> {
  return json(await refundsDue(env.DB));
}

/** GET /api/bookings/:id/receipt: the booking's payment and refund, for its owner or an admin (404 for anyone else). */
export async function getReceipt(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const row = await receiptOf(env.DB, inputOf(request, 'GET /bookings/:id/receipt').params.id);
  if (!row || (row.account_id !== user.id && user.role !== 'admin')) throw new HttpError(404, 'No such booking');
  await noteStaffRead(env, user, {
    id: row.booking_id,
    user_id: row.user_id,
    account_id: row.account_id,
    patient_name: row.patient_name,
  });
  const { transaction_id } = row;
  if (!transaction_id) throw new HttpError(404, 'This booking has no payment yet');
  return json(toReceipt({ ...row, transaction_id }) satisfies Receipt);
}

/** An expandable Stripe field's id. */
const idOf = (field: string | { id: string } | null): string | null =>
  typeof field === 'string' ? field : (field?.id ?? null);

/**
 * The one transaction id a booking's payment at the desk has: a booking is paid at the desk once,
 * so a double click, a retry or two staff at once record one payment (the payments' unique
 * transaction id is the idempotency key, kept by the database).
 */
export const deskTransactionId = (bookingId: string) => `desk_${bookingId.replaceAll('-', '')}`;

/**
 * POST /api/bookings/:id/desk-payment (admin): the patient paid the booking's price at the front
 * desk, in cash or by card on the clinic's terminal. Recorded as any payment is (one batch: the
 * payment, the booking paid, the audit row, the receipt by mail), under the booking's desk
 * transaction id, which the booking is first told to wait for. A repeat records nothing again and
 * answers as the first did. Paid meanwhile online: the desk's payment is flagged to be given back,
 * and the answer says so.
 */
export async function recordDeskPayment(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'POST /bookings/:id/desk-payment');
  const booking = await bookingFor(env, admin, input.params.id);
  const { method } = input.body;
  // A deposit paid online leaves the rest for the desk (money/balance.ts).
  if (booking.paid === 1 && booking.deposit_cents !== null) return json(await takeBalance(env, admin, booking, method));
  if (booking.paid === 1) throw new HttpError(409, 'This booking is already paid');
  if (booking.price_cents === 0) throw new HttpError(400, 'This booking is free: there is nothing to pay');
  const transactionId = deskTransactionId(booking.id);
  await rememberIntent(env, booking.id, transactionId).run();
  const recorded = await recordOutcome(
    env,
    {
      kind: 'succeeded',
      transactionId,
      bookingId: booking.id,
      amountCents: booking.price_cents,
      currency: 'usd',
      provider: 'desk',
      method,
    },
    admin,
  );
  if (recorded.refund) throw new HttpError(409, `This payment was not taken for the booking: ${recorded.refund.text}`);
  const paid = `${money(booking.price_cents, 'usd')} paid ${method === 'cash' ? 'in cash' : 'by card'} at the desk`;
  return json({
    acknowledged: true,
    message: isNoEmailAddress(booking.email) ? paid : `${paid}; the receipt is on its way to ${booking.email}`,
    transactionId,
  } satisfies DeskPaid);
}
