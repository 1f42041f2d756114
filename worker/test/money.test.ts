import { env } from 'cloudflare:test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sweepRefunds } from '../src/scheduled.ts';
import {
  accessTokenFor,
  addUser,
  bearer,
  call,
  clinicDay,
  DEMO_CARD,
  mailbox,
  payWithDemo,
  postJson,
  runCron,
  seed,
} from './helpers.ts';
import {
  documentedIntent,
  documentedRefund,
  STRIPE,
  type StripeStub,
  signedDelivery,
  stripeEvent,
  stubStripe,
} from './stripe-stub.ts';

let patient: Record<string, string>;
let other: Record<string, string>;
let admin: Record<string, string>;
/** Each booking gets a day of its own, from 3 days ahead (outside the default 24 hours). */
let day = 2;

beforeAll(async () => {
  await seed();
  await addUser('someone@example.com', 'Someone Else');
  patient = bearer(await accessTokenFor('patient@clinic.test'));
  other = bearer(await accessTokenFor('someone@example.com'));
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const setPolicy = (hours: unknown, headers = admin) =>
  call('/api/clinic/policy', {
    method: 'PUT',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ freeCancellationHours: hours }),
  });

afterEach(async () => {
  await env.DB.prepare('UPDATE cancellation_policy SET free_cancellation_hours = 24').run();
});

/** A fresh unpaid Cavity Filling ($150) of the seed patient, `daysAhead` days ahead (a day of its own by default). */
async function newBooking(daysAhead = ++day): Promise<string> {
  const response = await postJson(
    '/api/bookings',
    { treatment: 'Cavity Filling', appointmentDate: clinicDay(daysAhead), slot: '09.30 AM - 10.30 AM' },
    patient,
  );
  expect(response.status).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

/** Paid through the demo provider, as the payment page pays: intent, card, then recorded. */
const paidWithDemo = (bookingId: string, number?: string) => payWithDemo(bookingId, patient, number);

const cancel = (bookingId: string, headers = patient, query = '', bindings = {}) =>
  call(`/api/bookings/${bookingId}${query}`, { method: 'DELETE', headers }, bindings);
const receipt = (bookingId: string, headers: Record<string, string> = patient) =>
  call(`/api/bookings/${bookingId}/receipt`, { headers });

async function paymentRow(bookingId: string) {
  return env.DB.prepare(
    `SELECT refund_status, refund_reason, refund_id, refund_amount_cents, refund_failure
     FROM payments WHERE booking_id = ?1`,
  )
    .bind(bookingId)
    .first<{
      refund_status: string | null;
      refund_reason: string | null;
      refund_id: string | null;
      refund_amount_cents: number | null;
      refund_failure: string | null;
    }>();
}

describe('GET/PUT /api/clinic/policy', () => {
  it('tells anyone the free cancellation window, 24 hours until the clinic changes it', async () => {
    const response = await call('/api/clinic/policy');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      freeCancellationHours: 24,
      rescheduleCutoffHours: 24,
      noShowFee: 0,
      lateCancelFee: 0,
      unpaidHoldHours: 24,
      unpaidHoldHoursBeforeStart: 12,
    });
  });

  it('lets an admin change it, and nobody else', async () => {
    const saved = await setPolicy(48);
    expect(await saved.json()).toEqual({
      acknowledged: true,
      message: 'Cancellation policy saved',
      freeCancellationHours: 48,
      rescheduleCutoffHours: 24,
      noShowFee: 0,
      lateCancelFee: 0,
    });
    expect(await (await call('/api/clinic/policy', { headers: patient })).json()).toMatchObject({
      freeCancellationHours: 48,
      rescheduleCutoffHours: 24,
    });
    expect((await setPolicy(12, patient)).status).toBe(403);
    expect((await setPolicy(12, {})).status).toBe(401);
    expect(await (await call('/api/clinic/policy')).json()).toMatchObject({
      freeCancellationHours: 48,
      rescheduleCutoffHours: 24,
    });
  });

  it.each([
    [-1, 'freeCancellationHours cannot be negative'],
    [1.5, 'freeCancellationHours must be a whole number of hours'],
    [721, 'freeCancellationHours must be at most 720 (30 days)'],
    ['24', 'freeCancellationHours must be a number of hours'],
  ])('refuses %j with 400 and changes nothing', async (hours, message) => {
    const response = await setPolicy(hours);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ acknowledged: false, message });
    expect(await (await call('/api/clinic/policy')).json()).toMatchObject({
      freeCancellationHours: 24,
      rescheduleCutoffHours: 24,
    });
  });
});

describe('cancelling a paid booking: the policy window and the refund (demo provider)', () => {
  it('refunds a paid booking in full when its patient cancels it outside the window', async () => {
    const bookingId = await newBooking();
    await paidWithDemo(bookingId);
    const response = await cancel(bookingId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: 'Booking cancelled',
      refund: { status: 'succeeded', amount: 150, currency: 'usd' },
    });
    expect(await paymentRow(bookingId)).toMatchObject({
      refund_status: 'succeeded',
      refund_reason: 'cancelled',
      refund_amount_cents: 15000,
      refund_id: expect.stringMatching(/^re_demo_/),
    });
    expect((await receipt(bookingId)).status).toBe(200);
    expect(await (await receipt(bookingId)).json()).toMatchObject({
      bookingStatus: 'cancelled',
      refund: { status: 'succeeded', amount: 150, currency: 'usd' },
    });
  });

  it('mails the patient once that the refund was made: the amount, the card, when to expect it', async () => {
    const box = mailbox();
    const bookingId = await newBooking();
    await payWithDemo(bookingId, patient, undefined, { MAILER: box.mailer });
    expect((await cancel(bookingId, patient, '', { MAILER: box.mailer })).status).toBe(200);
    const notices = box.to('patient@clinic.test').filter((mail) => String(mail.subject).startsWith('Refunded'));
    expect(notices.map((mail) => mail.subject)).toEqual(['Refunded: $150.00 for Cavity Filling']);
    expect(String(notices[0]?.text)).toContain(
      'We refunded $150.00 for your Cavity Filling appointment to the card you paid with (Visa ending 4242).',
    );
    expect(String(notices[0]?.text)).toContain('Banks usually show a refund within 5 to 10 business days.');
    // Cancelled again, swept again: the money went back once, and so did the mail.
    expect((await cancel(bookingId, admin, '', { MAILER: box.mailer })).status).toBe(404);
    await runCron(Date.now(), { MAILER: box.mailer });
    expect(box.to('patient@clinic.test').filter((mail) => String(mail.subject).startsWith('Refunded'))).toHaveLength(1);
  });

  it('inside the window: the patient is told to call the clinic; an admin cancels, refunding or not', async () => {
    const kept = await newBooking();
    await paidWithDemo(kept);
    expect((await setPolicy(720)).status).toBe(200);
    const refused = await cancel(kept);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message:
        'A paid appointment can be cancelled online until 720 hours before it starts; please call the clinic to cancel this one',
    });
    expect((await call(`/api/bookings/${kept}`, { headers: patient })).status).toBe(200);
    expect(await paymentRow(kept)).toMatchObject({ refund_status: null });

    // The admin chooses not to refund: the booking is cancelled and the money kept.
    const noRefund = await cancel(kept, admin, '?refund=false');
    expect(await noRefund.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    expect(await paymentRow(kept)).toMatchObject({ refund_status: null, refund_id: null });
    expect(await (await receipt(kept)).json()).toMatchObject({ bookingStatus: 'cancelled', refund: null });

    // By default an admin's cancellation refunds.
    const refunded = await newBooking();
    await paidWithDemo(refunded);
    expect(await (await cancel(refunded, admin)).json()).toMatchObject({
      refund: { status: 'succeeded', amount: 150 },
    });
    expect(await paymentRow(refunded)).toMatchObject({ refund_status: 'succeeded', refund_reason: 'cancelled' });
    expect((await cancel(await newBooking(), admin, '?refund=maybe')).status).toBe(400);
  });

  it('still lets a patient cancel an unpaid booking inside the window (nothing to refund)', async () => {
    const bookingId = await newBooking();
    await setPolicy(720);
    const response = await cancel(bookingId);
    expect(await response.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
  });

  it('refunds once however often it is cancelled, one after the other or at once', async () => {
    const bookingId = await newBooking();
    await paidWithDemo(bookingId);
    expect((await cancel(bookingId)).status).toBe(200);
    const again = await cancel(bookingId);
    expect(again.status).toBe(404);
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'succeeded' });

    const raced = await newBooking();
    await paidWithDemo(raced);
    const answers = await Promise.all([cancel(raced), cancel(raced), cancel(raced, admin)]);
    const bodies = await Promise.all(answers.map((a) => a.json<{ modifiedCount?: number; refund?: unknown }>()));
    expect(bodies.filter((b) => b.modifiedCount === 1)).toHaveLength(1);
    expect(bodies.filter((b) => b.refund)).toHaveLength(1);
    const refunds = await env.DB.prepare(
      "SELECT count(*) AS n FROM payments WHERE booking_id = ?1 AND refund_status = 'succeeded'",
    )
      .bind(raced)
      .first<number>('n');
    expect(refunds).toBe(1);
  });

  it('fails the refund of Stripe’s late-failing test card 4000 0000 0000 5126 a while after it succeeded, and tells the admin why', async () => {
    const bookingId = await newBooking();
    const transactionId = await paidWithDemo(bookingId, '4000 0000 0000 5126');
    expect(await (await cancel(bookingId)).json()).toMatchObject({ refund: { status: 'succeeded' } });

    await sweepRefunds(env);
    expect(await (await receipt(bookingId)).json()).toMatchObject({
      refund: { status: 'failed', amount: 150, currency: 'usd' },
    });
    const listed = (await (await call('/api/refunds', { headers: admin })).json<Record<string, unknown>[]>()).find(
      (r) => r.transactionId === transactionId,
    );
    expect(listed).toMatchObject({
      refundStatus: 'failed',
      failure: 'The card has expired or was cancelled, so the refund could not reach it',
      reason: 'The paid booking was cancelled',
    });
    // Another sweep changes nothing.
    await sweepRefunds(env);
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'failed' });
  });
});

describe('refunds through Stripe (a stub of Stripe’s API answering with its documented objects)', () => {
  let stub: StripeStub;
  beforeEach(() => {
    stub = stubStripe();
  });
  afterEach(() => vi.restoreAllMocks());

  /** A booking paid through Stripe, as the webhook records it (the intent `pi_for_<id>`). */
  async function paidWithStripe(): Promise<{ bookingId: string; intent: string }> {
    const bookingId = await newBooking();
    const intent = `pi_for_${bookingId}`;
    await env.DB.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1').bind(bookingId, intent).run();
    const paid = await deliver(
      stripeEvent('payment_intent.succeeded', {
        ...documentedIntent,
        id: intent,
        status: 'succeeded',
        metadata: { bookingId },
      }),
    );
    expect(await paid.json()).toEqual({ received: true, duplicate: false });
    return { bookingId, intent };
  }

  async function deliver(event: object) {
    const { body, signature } = await signedDelivery(event);
    return call(
      '/api/stripe/webhook',
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body },
      STRIPE,
    );
  }

  const refundEvent = (type: string, intent: string, refund: Partial<typeof documentedRefund> & { id: string }) =>
    stripeEvent(type, { ...documentedRefund, payment_intent: intent, ...refund });

  it('asks Stripe once, in full, under the key refund:<booking id>, however many cancels race', async () => {
    const { bookingId, intent } = await paidWithStripe();
    const answers = await Promise.all([
      cancel(bookingId, patient, '', STRIPE),
      cancel(bookingId, patient, '', STRIPE),
      cancel(bookingId, admin, '', STRIPE),
    ]);
    const bodies = await Promise.all(answers.map((a) => a.json<{ modifiedCount?: number; refund?: unknown }>()));
    // One cancels; the others find it cancelled (404) or changed meanwhile (409): nothing twice.
    expect(answers.map((a) => a.status).filter((status) => status === 200)).toHaveLength(1);
    expect(answers.every((a) => [200, 404, 409].includes(a.status))).toBe(true);
    expect(bodies.filter((b) => b.modifiedCount === 1)).toHaveLength(1);
    expect(bodies.filter((b) => b.refund)).toHaveLength(1);
    const asked = stub.refundRequests();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers.get('Idempotency-Key')).toBe(`refund:${bookingId}`);
    expect(Object.fromEntries(new URLSearchParams(asked[0]!.body))).toMatchObject({
      payment_intent: intent,
      amount: '15000',
      reason: 'requested_by_customer',
      'metadata[bookingId]': bookingId,
    });
    expect(await paymentRow(bookingId)).toMatchObject({
      refund_status: 'succeeded',
      refund_id: expect.stringMatching(/^re_fixture_/),
    });
  });

  it('follows the refund’s webhooks forward only: duplicated or reordered deliveries change nothing twice', async () => {
    stub.refunds.status = 'pending';
    const { bookingId, intent } = await paidWithStripe();
    expect(await (await cancel(bookingId, patient, '', STRIPE)).json()).toMatchObject({
      refund: { status: 'pending', amount: 150 },
    });
    const refundId = (await paymentRow(bookingId))!.refund_id!;
    expect(refundId).toMatch(/^re_fixture_/);

    const created = refundEvent('refund.created', intent, { id: refundId, status: 'pending' });
    expect(await (await deliver(created)).json()).toEqual({ received: true, duplicate: false });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'pending' });

    const succeeded = refundEvent('refund.updated', intent, { id: refundId, status: 'succeeded' });
    expect(await (await deliver(succeeded)).json()).toEqual({ received: true, duplicate: false });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'succeeded' });

    // The same delivery again, and an older event arriving late: nothing changes, nothing goes back.
    expect(await (await deliver(succeeded)).json()).toEqual({ received: true, duplicate: true });
    const lateCreated = refundEvent('refund.created', intent, { id: refundId, status: 'pending' });
    expect(await (await deliver(lateCreated)).json()).toEqual({ received: true, duplicate: false });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'succeeded' });

    // A card refund can still fail after it succeeded; a late 'succeeded' does not undo that.
    const failed = refundEvent('refund.failed', intent, {
      id: refundId,
      status: 'failed',
      failure_reason: 'lost_or_stolen_card',
    } as never);
    await deliver(failed);
    await deliver(refundEvent('refund.updated', intent, { id: refundId, status: 'succeeded' }));
    await deliver(failed);
    expect(await paymentRow(bookingId)).toMatchObject({
      refund_status: 'failed',
      refund_failure: 'The card was reported lost or stolen, so the refund could not reach it',
    });
    expect(await (await receipt(bookingId)).json()).toMatchObject({ refund: { status: 'failed', amount: 150 } });
    const events = await env.DB.prepare('SELECT count(*) AS n FROM stripe_events WHERE id IN (?1, ?2, ?3)')
      .bind(created.id, succeeded.id, failed.id)
      .first<number>('n');
    expect(events).toBe(3);
  });

  it('takes charge.refunded for a full refund as refunded, and ignores a partial one', async () => {
    const { bookingId, intent } = await paidWithStripe();
    // Refunded from Stripe's dashboard, say: the clinic learns it from the webhook.
    const charge = { id: 'ch_fixture', object: 'charge', payment_intent: intent, amount: 15000 };
    const partial = await deliver(
      stripeEvent('charge.refunded', { ...charge, amount_refunded: 5000, refunded: false }),
    );
    expect(await partial.json()).toEqual({ received: true, ignored: 'not a full refund of a payment intent' });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: null });
    const full = stripeEvent('charge.refunded', { ...charge, amount_refunded: 15000, refunded: true });
    expect(await (await deliver(full)).json()).toEqual({ received: true, duplicate: false });
    expect(await (await deliver(full)).json()).toEqual({ received: true, duplicate: true });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'succeeded', refund_amount_cents: 15000 });
  });

  it('records a refund Stripe refuses at once as failed, in plain words', async () => {
    stub.refunds = { status: 'failed', failureReason: 'expired_or_canceled_card' };
    const { bookingId, intent } = await paidWithStripe();
    expect(await (await cancel(bookingId, patient, '', STRIPE)).json()).toMatchObject({
      refund: { status: 'failed', amount: 150 },
    });
    const listed = (await (await call('/api/refunds', { headers: admin })).json<Record<string, unknown>[]>()).find(
      (r) => r.transactionId === intent,
    );
    expect(listed).toMatchObject({
      refundStatus: 'failed',
      failure: 'The card has expired or was cancelled, so the refund could not reach it',
    });
  });

  it('keeps the refund pending while Stripe cannot be reached, and the sweep asks again with the same key', async () => {
    const { bookingId } = await paidWithStripe();
    stub.unreachable = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await cancel(bookingId, patient, '', STRIPE);
    expect(await response.json()).toMatchObject({ message: 'Booking cancelled', refund: { status: 'pending' } });
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'pending', refund_id: null });

    stub.unreachable = false;
    expect(await sweepRefunds({ ...env, ...STRIPE })).toBeGreaterThanOrEqual(1);
    expect(await paymentRow(bookingId)).toMatchObject({ refund_status: 'succeeded' });
    const keys = new Set(stub.refundRequests().map((r) => r.headers.get('Idempotency-Key')));
    expect([...keys]).toEqual([`refund:${bookingId}`]);
    // Nothing is left to ask.
    const before = stub.refundRequests().length;
    await sweepRefunds({ ...env, ...STRIPE });
    expect(stub.refundRequests()).toHaveLength(before);
  });

  it('shows the card Stripe charged on the receipt', async () => {
    const bookingId = await newBooking();
    const created = await call(
      '/api/create-payment-intent',
      {
        method: 'POST',
        headers: { ...patient, 'Content-Type': 'application/json' },
        body: JSON.stringify({ bookingId }),
      },
      STRIPE,
    );
    const { clientSecret } = await created.json<{ clientSecret: string }>();
    const id = clientSecret.split('_secret_')[0]!;
    stub.intents.get(id)!.status = 'succeeded';
    const recorded = await call(
      '/api/payments',
      {
        method: 'POST',
        headers: { ...patient, 'Content-Type': 'application/json' },
        body: JSON.stringify({ transactionId: id, bookingId }),
      },
      STRIPE,
    );
    expect(recorded.status).toBe(200);
    expect(await (await receipt(bookingId)).json()).toMatchObject({
      transactionId: id,
      provider: 'stripe',
      card: { brand: 'visa', last4: '4242' },
    });
  });
});

describe('GET /api/bookings/:id/receipt', () => {
  it('shows the owner and an admin the payment: amount, currency, when, transaction, card; 404 for anyone else', async () => {
    const bookingId = await newBooking();
    const transactionId = await paidWithDemo(bookingId);
    const response = await receipt(bookingId);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      bookingId,
      treatment: 'Cavity Filling',
      appointmentDate: expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/),
      slot: '09.30 AM - 10.30 AM',
      patientName: 'Jamie Patient',
      email: 'patient@clinic.test',
      bookingStatus: 'active',
      amount: 150,
      currency: 'usd',
      method: null,
      paidAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      transactionId,
      provider: 'demo',
      card: { brand: 'visa', last4: '4242' },
      refund: null,
    });
    expect(await (await receipt(bookingId, admin)).json()).toEqual(body);

    const stranger = await receipt(bookingId, other);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: 'No such booking' });
    expect((await receipt(bookingId, {})).status).toBe(401);
    expect((await receipt('no-such-booking')).status).toBe(404);
  });

  it('has nothing to show for an unpaid booking (404)', async () => {
    const bookingId = await newBooking();
    const response = await receipt(bookingId);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'This booking has no payment yet' });
  });

  it('shows a payment that arrived after the booking was cancelled, refunded at once', async () => {
    const bookingId = await newBooking();
    const intent = await postJson('/api/create-payment-intent', { bookingId }, patient);
    const { clientSecret } = await intent.json<{ clientSecret: string }>();
    expect((await cancel(bookingId)).status).toBe(200);
    await postJson('/api/demo-payments/confirm', { clientSecret, card: DEMO_CARD }, patient);
    expect(await (await receipt(bookingId)).json()).toMatchObject({
      bookingStatus: 'cancelled',
      amount: 150,
      refund: { status: 'succeeded', amount: 150 },
    });
  });
});
