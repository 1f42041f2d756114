import Stripe from 'stripe';
import * as v from 'valibot';
import { requireUser } from './auth.ts';
import { bookingFor } from './bookings.ts';
import type { Env } from './env.ts';
import { HttpError, json, readAtMost, readJson, text } from './http.ts';
import { decideDemoCard, verifyDemoSecret } from './payments/demo-provider.ts';
import { paymentProvider } from './payments/provider.ts';
import { recordOutcome } from './payments/record.ts';
import { stripeClient, toIntent } from './payments/stripe-provider.ts';

const IntentRequest = v.object({ bookingId: text('bookingId', 100) });

/** POST /api/create-payment-intent: the booking's owner gets a client secret; the amount is the booking's. */
export async function createPaymentIntent(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const { bookingId } = await readJson(request, IntentRequest);
  const booking = await bookingFor(env, user, bookingId, true);
  if (booking.paid) throw new HttpError(409, 'This booking is already paid');
  if (booking.price_cents <= 0) throw new HttpError(400, 'This booking has nothing to pay');
  const provider = paymentProvider(env);
  const intent = await provider.intentFor({
    id: booking.id,
    priceCents: booking.price_cents,
    email: booking.email,
    treatment: booking.treatment,
    paymentIntentId: booking.payment_intent_id,
  });
  if (intent.status === 'succeeded') throw new HttpError(409, 'This booking is already paid');
  await env.DB.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1').bind(booking.id, intent.id).run();
  return json({
    clientSecret: intent.clientSecret,
    provider: provider.name,
    publishableKey: provider.name === 'stripe' ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    amount: intent.amountCents / 100,
    currency: intent.currency,
  });
}

const PaymentRecord = v.object({
  transactionId: text('transactionId', 255),
  bookingId: text('bookingId', 100),
});

/** POST /api/payments: recorded only after the provider confirms the payment for this very booking. */
export async function recordPayment(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const body = await readJson(request, PaymentRecord);
  const booking = await bookingFor(env, user, body.bookingId, true);
  const provider = paymentProvider(env);
  const intent = await provider.retrieve(body.transactionId);
  if (!intent) throw new HttpError(404, 'No such payment');
  if (intent.bookingId !== booking.id) throw new HttpError(409, 'This payment belongs to another booking');
  if (intent.amountCents !== booking.price_cents || intent.currency !== 'usd') {
    throw new HttpError(409, 'This payment does not match the booking’s price');
  }
  if (intent.status !== 'succeeded') throw new HttpError(402, 'This payment has not succeeded');
  await recordOutcome(env, {
    kind: 'succeeded',
    bookingId: booking.id,
    transactionId: intent.id,
    amountCents: intent.amountCents,
    provider: provider.name,
  });
  return json({ acknowledged: true, insertedId: intent.id, message: 'Payment recorded' });
}

const MAX_WEBHOOK_BYTES = 512 * 1024;

/** POST /api/stripe/webhook: signed by Stripe; each event changes the database at most once. */
export async function stripeWebhook(request: Request, env: Env): Promise<Response> {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) throw new HttpError(404, 'Stripe is not configured');
  const signature = request.headers.get('Stripe-Signature');
  if (!signature) throw new HttpError(400, 'Missing Stripe-Signature header');
  const payload = new TextDecoder().decode(await readAtMost(request, MAX_WEBHOOK_BYTES));
  let event: Stripe.Event;
  try {
    event = await stripeClient(env.STRIPE_SECRET_KEY).webhooks.constructEventAsync(
      payload,
      signature,
      env.STRIPE_WEBHOOK_SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
  } catch {
    throw new HttpError(400, 'Invalid Stripe signature');
  }
  const seen = { id: event.id, type: event.type, created: event.created };
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return json({ received: true, ignored: event.type });
  }
  const intent = toIntent(event.data.object);
  if (!intent.bookingId) return json({ received: true, ignored: 'no booking in metadata' });
  const booking = await env.DB.prepare('SELECT price_cents FROM bookings WHERE id = ?1').bind(intent.bookingId).first<{ price_cents: number }>();
  if (!booking) return json({ received: true, ignored: 'unknown booking' });

  let result: 'applied' | 'duplicate';
  if (event.type === 'payment_intent.succeeded') {
    if (intent.amountCents !== booking.price_cents || intent.currency !== 'usd') {
      console.error('payment amount differs from booking', intent.id, intent.bookingId);
      return json({ received: true, ignored: 'amount mismatch' });
    }
    result = await recordOutcome(
      env,
      { kind: 'succeeded', bookingId: intent.bookingId, transactionId: intent.id, amountCents: intent.amountCents, provider: 'stripe' },
      seen,
    );
  } else {
    const message = event.data.object.last_payment_error?.message ?? 'The payment failed';
    result = await recordOutcome(env, { kind: 'failed', bookingId: intent.bookingId, message }, seen);
  }
  return json({ received: true, duplicate: result === 'duplicate' });
}

const DemoConfirmation = v.object({
  clientSecret: text('clientSecret', 200),
  card: v.object({
    number: text('card.number', 30),
    expMonth: v.pipe(v.number('card.expMonth must be a number'), v.integer('card.expMonth must be a whole number')),
    expYear: v.pipe(v.number('card.expYear must be a number'), v.integer('card.expYear must be a whole number')),
    cvc: v.pipe(v.string('card.cvc must be text'), v.trim(), v.maxLength(4, "Your card's security code is invalid.")),
  }),
});

/**
 * POST /api/demo-payments/confirm: the demo provider's card charge, only while no Stripe key is
 * configured. Follows Stripe's test cards and ends in the same recording path as the webhook.
 */
export async function confirmDemoPayment(request: Request, env: Env): Promise<Response> {
  if (env.STRIPE_SECRET_KEY) throw new HttpError(404, 'Demo payments are off: Stripe is configured');
  const user = await requireUser(request, env);
  const body = await readJson(request, DemoConfirmation);
  const intentId = await verifyDemoSecret(env, body.clientSecret);
  if (!intentId) throw new HttpError(400, 'This payment is not valid; reload the page and try again');
  // Any status: bookingFor answers 404 for a cancelled booking and 410 for a released one.
  const bookingId = await env.DB.prepare('SELECT id FROM bookings WHERE payment_intent_id = ?1')
    .bind(intentId)
    .first<string>('id');
  if (!bookingId) throw new HttpError(404, 'No such booking');
  const booking = await bookingFor(env, user, bookingId, true);
  if (booking.paid) throw new HttpError(409, 'This booking is already paid');

  const decision = decideDemoCard(body.card);
  if (!decision.ok) {
    if (decision.status === 402) {
      await recordOutcome(env, { kind: 'failed', bookingId: booking.id, message: decision.message });
    }
    return json(
      { acknowledged: false, message: decision.message, code: decision.code, declineCode: decision.declineCode ?? null },
      decision.status,
    );
  }
  await recordOutcome(env, {
    kind: 'succeeded',
    bookingId: booking.id,
    transactionId: intentId,
    amountCents: booking.price_cents,
    provider: 'demo',
  });
  return json({ paymentIntent: { id: intentId, status: 'succeeded', amount: booking.price_cents / 100 } });
}
