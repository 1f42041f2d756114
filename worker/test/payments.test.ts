import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import Stripe from 'stripe';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clinicNow } from '../src/platform/clinic-time.ts';
import documentedRefund from './fixtures/stripe-refund.json';
import { accessTokenFor, addUser, bearer, call, postJson, seed } from './helpers.ts';
import { documentedIntent, STRIPE, type StripeStub, stubStripe } from './stripe-stub.ts';

const inDays = (n: number) => format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), n), 'yyyy-MM-dd');

let patient: Record<string, string>;
let other: Record<string, string>;
let day = 1;

beforeAll(async () => {
  await seed();
  await addUser('other@example.com', 'Other Patient');
  patient = bearer(await accessTokenFor('patient@clinic.test'));
  other = bearer(await accessTokenFor('other@example.com'));
});

/** A fresh unpaid Cavity Filling ($150) booking of the seed patient, on a day of its own (from 2 days ahead: outside the cancellation policy's 24 hours). */
async function newBooking(): Promise<string> {
  day += 1;
  const response = await postJson(
    '/api/bookings',
    { treatment: 'Cavity Filling', appointmentDate: inDays(day), slot: '09.30 AM - 10.30 AM' },
    patient,
  );
  expect(response.status).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

/** A fresh unpaid booking as the payment page leaves it: waiting for the intent `pi_for_<id>`. */
async function bookingWaitingForIntent(): Promise<string> {
  const id = await newBooking();
  await env.DB.prepare("UPDATE bookings SET payment_intent_id = 'pi_for_' || id WHERE id = ?1").bind(id).run();
  return id;
}

const cancel = (bookingId: string, bindings = {}) =>
  call(`/api/bookings/${bookingId}`, { method: 'DELETE', headers: patient }, bindings);

async function paymentOf(transactionId: string) {
  return env.DB.prepare(
    'SELECT booking_id, amount_cents, refund_status, refund_reason FROM payments WHERE transaction_id = ?1',
  )
    .bind(transactionId)
    .first<{ booking_id: string; amount_cents: number; refund_status: string | null; refund_reason: string | null }>();
}

/** The audit rows about a booking, oldest first. */
async function auditOf(bookingId: string) {
  const { results } = await env.DB.prepare(
    'SELECT action, actor_id, actor_email, actor_label FROM audit_log WHERE target_id = ?1 ORDER BY id',
  )
    .bind(bookingId)
    .all();
  return results;
}

async function bookingState(id: string) {
  return env.DB.prepare(
    `SELECT b.paid, b.payment_intent_id, b.payment_error, (SELECT count(*) FROM payments p WHERE p.booking_id = b.id) AS payments
     FROM bookings b WHERE b.id = ?1`,
  )
    .bind(id)
    .first<{ paid: number; payment_intent_id: string | null; payment_error: string | null; payments: number }>();
}

describe('Stripe provider (a stub of Stripe’s API answering with its documented objects, no network)', () => {
  let stub: StripeStub;
  let requests: StripeStub['requests'];
  let intents: StripeStub['intents'];
  /** The id of the intent the stub created last. */
  const lastIntent = () => [...intents.keys()].at(-1)!;

  beforeEach(() => {
    stub = stubStripe();
    ({ requests, intents } = stub);
  });
  afterEach(() => vi.restoreAllMocks());

  const intentRequest = (bookingId: string, headers = patient) =>
    call(
      '/api/create-payment-intent',
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ bookingId, price: 1 }),
      },
      STRIPE,
    );

  it('creates one PaymentIntent per booking with the booking’s amount, its id in metadata and an idempotency key', async () => {
    const bookingId = await newBooking();
    const response = await intentRequest(bookingId);
    expect(response.status).toBe(200);
    const id = lastIntent();
    expect(await response.json()).toEqual({
      clientSecret: `${id}_secret_abc`,
      provider: 'stripe',
      publishableKey: 'pk_test_fixture',
      amount: 150,
      currency: 'usd',
    });
    const create = requests.find((r) => r.method === 'POST')!;
    const form = new URLSearchParams(create.body);
    expect(form.get('amount')).toBe('15000');
    expect(form.get('currency')).toBe('usd');
    expect(form.get('metadata[bookingId]')).toBe(bookingId);
    expect(create.headers.get('Idempotency-Key')).toBe(`booking-${bookingId}-15000`);
    expect(create.headers.get('Authorization')).toBe('Bearer sk_test_fixture');

    // The page knew the provider before asking (GET /api/payments/provider, anyone, nothing asked of Stripe).
    const provider = await call('/api/payments/provider', {}, STRIPE);
    expect(await provider.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_fixture' });
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    // Asking again reuses the intent instead of creating a second one.
    expect(await (await intentRequest(bookingId)).json()).toMatchObject({ clientSecret: `${id}_secret_abc` });
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect((await bookingState(bookingId))?.payment_intent_id).toBe(id);
  });

  it('creates one PaymentIntent for a family visit: the sum of its members’ prices, each booking waiting for its line', async () => {
    const [a, b] = [await newBooking(), await newBooking()];
    await env.DB.prepare("UPDATE bookings SET family_visit_id = 'fv-' || ?1 WHERE id IN (?1, ?2)").bind(a, b).run();
    const ask = () =>
      call(
        '/api/create-payment-intent',
        {
          method: 'POST',
          headers: { ...patient, 'Content-Type': 'application/json' },
          body: JSON.stringify({ familyVisitId: `fv-${a}` }),
        },
        STRIPE,
      );
    const response = await ask();
    expect(await response.json()).toMatchObject({ provider: 'stripe', amount: 300 });
    const id = lastIntent();
    const form = new URLSearchParams(requests.find((r) => r.method === 'POST')?.body);
    expect([form.get('amount'), form.get('metadata[familyVisitId]'), form.get('metadata[bookingIds]')]).toEqual([
      '30000',
      `fv-${a}`,
      `${a},${b}`, // first visit first
    ]);
    expect((await bookingState(b))?.payment_intent_id).toBe(`${id}:${b}`);
    // Asking again reuses it.
    await ask();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('refuses someone else’s booking (403), an unknown one (404) and a paid one (409)', async () => {
    const bookingId = await newBooking();
    expect((await intentRequest(bookingId, other)).status).toBe(403);
    expect((await intentRequest('no-such-booking')).status).toBe(404);
    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(bookingId).run();
    const paid = await intentRequest(bookingId);
    expect(paid.status).toBe(409);
    expect(await paid.json()).toEqual({ acknowledged: false, message: 'This booking is already paid' });
    expect(requests).toHaveLength(0);
  });

  describe('POST /api/payments', () => {
    const record = (bookingId: string, transactionId: string, headers = patient) =>
      call(
        '/api/payments',
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ transactionId, bookingId, price: 150, email: 'patient@clinic.test' }),
        },
        STRIPE,
      );

    it('refuses an intent that has not succeeded (402), and records nothing', async () => {
      const bookingId = await newBooking();
      await intentRequest(bookingId);
      const response = await record(bookingId, lastIntent());
      expect(response.status).toBe(402);
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 0 });
    });

    it('refuses an intent of another booking (409) and an unknown one (404)', async () => {
      const first = await newBooking();
      const second = await newBooking();
      await intentRequest(first);
      const id = lastIntent();
      intents.get(id)!.status = 'succeeded';
      expect((await record(second, id)).status).toBe(409);
      expect((await record(first, 'pi_nope')).status).toBe(404);
      expect(await bookingState(first)).toMatchObject({ paid: 0, payments: 0 });
      expect(await bookingState(second)).toMatchObject({ paid: 0, payments: 0 });
    });

    it('records money taken with another amount for a refund, without paying the booking', async () => {
      const bookingId = await newBooking();
      await intentRequest(bookingId);
      const id = lastIntent();
      Object.assign(intents.get(id)!, { status: 'succeeded', amount: 100 });
      const response = await record(bookingId, id);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        acknowledged: true,
        insertedId: id,
        refundDue: true,
        message: 'The amount paid differs from the booking’s price. The clinic will refund $1.00 to your card.',
      });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
      expect(await paymentOf(id)).toEqual({
        booking_id: bookingId,
        amount_cents: 100,
        refund_status: 'due',
        refund_reason: 'amount_differs',
      });
    });

    it('records a card charged for a booking cancelled meanwhile, flags it for a refund and says so (not 404)', async () => {
      const bookingId = await newBooking();
      await intentRequest(bookingId);
      const id = lastIntent();
      expect((await cancel(bookingId)).status).toBe(200);
      intents.get(id)!.status = 'succeeded'; // the card form had been filled in before the cancellation
      const response = await record(bookingId, id);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        acknowledged: true,
        insertedId: id,
        refundDue: true,
        message: 'The booking was cancelled before the payment arrived. $150.00 has been refunded to your card.',
      });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
      expect(await paymentOf(id)).toEqual({
        booking_id: bookingId,
        amount_cents: 15000,
        refund_status: 'succeeded',
        refund_reason: 'booking_not_active',
      });
      // Refunded at once, in full, through Stripe, under the booking's idempotency key.
      const [refund] = stub.refundRequests();
      expect(new URLSearchParams(refund!.body).get('payment_intent')).toBe(id);
      expect(new URLSearchParams(refund!.body).get('amount')).toBe('15000');
      expect(refund!.headers.get('Idempotency-Key')).toBe(`refund:${bookingId}`);
      // Recording it again changes nothing, refunds nothing twice, and someone else still may not.
      expect(await (await record(bookingId, id)).json()).toMatchObject({ refundDue: true });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
      expect(stub.refundRequests()).toHaveLength(1);
      expect((await record(bookingId, id, other)).status).toBe(403);
    });

    it('records a succeeded intent once, after asking Stripe', async () => {
      const bookingId = await newBooking();
      await intentRequest(bookingId);
      const id = lastIntent();
      intents.get(id)!.status = 'succeeded';
      const response = await record(bookingId, id);
      expect(await response.json()).toEqual({ acknowledged: true, insertedId: id, message: 'Payment recorded' });
      expect(requests.at(-1)).toMatchObject({
        method: 'GET',
        url: `https://api.stripe.com/v1/payment_intents/${id}?expand[0]=latest_charge`,
      });
      expect((await record(bookingId, id)).status).toBe(200);
      expect(await bookingState(bookingId)).toMatchObject({ paid: 1, payments: 1 });
      expect((await record(bookingId, id, other)).status).toBe(403);
    });
  });

  describe('POST /api/stripe/webhook', () => {
    const stripe = new Stripe('sk_test_fixture', { httpClient: Stripe.createFetchHttpClient() });
    let eventCounter = 0;

    function event(type: string, bookingId: string, overrides: Partial<typeof documentedIntent> = {}) {
      eventCounter += 1;
      return {
        id: `evt_fixture_${eventCounter}`,
        object: 'event',
        api_version: '2026-10-28',
        created: 1795000000 + eventCounter,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: { ...documentedIntent, id: `pi_for_${bookingId}`, metadata: { bookingId }, ...overrides } },
      };
    }

    async function deliver(payload: object, signature?: string) {
      const body = JSON.stringify(payload);
      const header =
        signature ??
        (await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret: STRIPE.STRIPE_WEBHOOK_SECRET }));
      return call(
        '/api/stripe/webhook',
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body },
        STRIPE,
      );
    }

    it('marks the booking paid and records the payment on payment_intent.succeeded', async () => {
      const bookingId = await bookingWaitingForIntent();
      const response = await deliver(event('payment_intent.succeeded', bookingId, { status: 'succeeded' }));
      expect(await response.json()).toEqual({ received: true, duplicate: false });
      expect(await bookingState(bookingId)).toMatchObject({
        paid: 1,
        payments: 1,
        payment_intent_id: `pi_for_${bookingId}`,
      });
      // The audit trail names the webhook as the actor: the system, no user.
      expect(await auditOf(bookingId)).toEqual([
        { action: 'payment.succeeded', actor_id: null, actor_email: null, actor_label: 'stripe' },
      ]);
    });

    it('changes nothing twice when the same event is delivered twice', async () => {
      const bookingId = await bookingWaitingForIntent();
      const succeeded = event('payment_intent.succeeded', bookingId, { status: 'succeeded' });
      await deliver(succeeded);
      const again = await deliver(succeeded);
      expect(await again.json()).toEqual({ received: true, duplicate: true });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 1, payments: 1 });
      const events = await env.DB.prepare('SELECT count(*) AS n FROM stripe_events WHERE id = ?1')
        .bind(succeeded.id)
        .first<{ n: number }>();
      expect(events?.n).toBe(1);
      expect(await auditOf(bookingId)).toHaveLength(1);
    });

    it('records one payment when Stripe delivers the same event 10 times at once', async () => {
      const bookingId = await bookingWaitingForIntent();
      const succeeded = event('payment_intent.succeeded', bookingId, { status: 'succeeded' });
      const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(succeeded)));
      const bodies = await Promise.all(answers.map((a) => a.json<{ duplicate: boolean }>()));
      expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
      expect(await bookingState(bookingId)).toMatchObject({ paid: 1, payments: 1 });
      expect(await auditOf(bookingId)).toHaveLength(1);
    });

    it('ends paid whatever the order of a failure and a success', async () => {
      const a = await bookingWaitingForIntent();
      const failedA = event('payment_intent.payment_failed', a, {
        status: 'requires_payment_method',
        last_payment_error: { message: 'Your card was declined.' },
      } as never);
      const succeededA = event('payment_intent.succeeded', a, { status: 'succeeded' });
      await deliver(succeededA);
      await deliver(failedA); // a late failure never un-pays
      expect(await bookingState(a)).toMatchObject({ paid: 1, payments: 1, payment_error: null });

      const b = await bookingWaitingForIntent();
      await deliver(
        event('payment_intent.payment_failed', b, {
          status: 'requires_payment_method',
          last_payment_error: { message: 'Your card was declined.' },
        } as never),
      );
      expect(await bookingState(b)).toMatchObject({ paid: 0, payment_error: 'Your card was declined.' });
      await deliver(event('payment_intent.succeeded', b, { status: 'succeeded' }));
      expect(await bookingState(b)).toMatchObject({ paid: 1, payments: 1, payment_error: null });
    });

    it('never pays a booking cancelled before the payment arrived: the money is recorded and refunded', async () => {
      const bookingId = await bookingWaitingForIntent();
      const date = (await env.DB.prepare('SELECT appointment_date FROM bookings WHERE id = ?1')
        .bind(bookingId)
        .first<string>('appointment_date'))!;
      expect((await cancel(bookingId)).status).toBe(200);
      // The freed slot goes to someone else.
      const taken = await postJson(
        '/api/bookings',
        { treatment: 'Cavity Filling', appointmentDate: date, slot: '09.30 AM - 10.30 AM' },
        other,
      );
      expect(taken.status).toBe(201);
      const newcomer = (await taken.json<{ insertedId: string }>()).insertedId;

      const late = event('payment_intent.succeeded', bookingId, { status: 'succeeded' });
      const response = await deliver(late);
      expect(await response.json()).toEqual({ received: true, duplicate: false, refundDue: true });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
      expect(await paymentOf(`pi_for_${bookingId}`)).toEqual({
        booking_id: bookingId,
        amount_cents: 15000,
        refund_status: 'succeeded',
        refund_reason: 'booking_not_active',
      });
      expect(await bookingState(newcomer)).toMatchObject({ paid: 0, payments: 0 });

      // Delivered again: nothing changes twice, nothing is refunded twice.
      expect(await (await deliver(late)).json()).toEqual({ received: true, duplicate: true });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
      expect(stub.refundRequests()).toHaveLength(1);
    });

    it('matches an event by the intent id stored on the booking, not by its metadata', async () => {
      const waiting = await bookingWaitingForIntent();
      const named = await bookingWaitingForIntent();
      // The intent stored on `waiting`, with metadata that names another booking: it pays `waiting`.
      await deliver(event('payment_intent.succeeded', named, { id: `pi_for_${waiting}`, status: 'succeeded' }));
      expect(await bookingState(waiting)).toMatchObject({ paid: 1, payments: 1 });
      expect(await bookingState(named)).toMatchObject({ paid: 0, payments: 0 });

      // An intent the booking does not wait for never pays it; the money is kept for a refund.
      const stray = event('payment_intent.succeeded', named, { id: 'pi_stray_1', status: 'succeeded' });
      expect(await (await deliver(stray)).json()).toEqual({ received: true, duplicate: false, refundDue: true });
      expect(await bookingState(named)).toMatchObject({ paid: 0, payments: 1 });
      expect(await paymentOf('pi_stray_1')).toMatchObject({
        booking_id: named,
        refund_status: 'due',
        refund_reason: 'other_intent',
      });
      // A failure of an intent the booking does not wait for changes nothing.
      await deliver(
        event('payment_intent.payment_failed', named, { id: 'pi_stray_2', status: 'requires_payment_method' }),
      );
      expect(await bookingState(named)).toMatchObject({ payment_error: null });
    });

    it('records a second payment of a paid booking for a refund, and money with another amount too', async () => {
      const bookingId = await bookingWaitingForIntent();
      await deliver(event('payment_intent.succeeded', bookingId, { status: 'succeeded' }));
      await deliver(event('payment_intent.succeeded', bookingId, { id: 'pi_twice_1', status: 'succeeded' }));
      expect(await bookingState(bookingId)).toMatchObject({ paid: 1, payments: 2 });
      expect(await paymentOf(`pi_for_${bookingId}`)).toMatchObject({ refund_status: null });
      expect(await paymentOf('pi_twice_1')).toMatchObject({ refund_status: 'due', refund_reason: 'already_paid' });

      const cheaper = await bookingWaitingForIntent();
      expect(
        await (await deliver(event('payment_intent.succeeded', cheaper, { status: 'succeeded', amount: 100 }))).json(),
      ).toMatchObject({ refundDue: true });
      expect(await bookingState(cheaper)).toMatchObject({ paid: 0, payments: 1 });
      expect(await paymentOf(`pi_for_${cheaper}`)).toMatchObject({
        amount_cents: 100,
        refund_status: 'due',
        refund_reason: 'amount_differs',
      });
    });

    it('under a cancellation racing the payment, a booking ends cancelled and the money refunded exactly once', async () => {
      for (let round = 0; round < 6; round++) {
        const bookingId = await bookingWaitingForIntent();
        const [cancelled, delivered] = await Promise.all([
          cancel(bookingId, STRIPE),
          deliver(event('payment_intent.succeeded', bookingId, { status: 'succeeded' })),
        ]);
        expect(delivered.status).toBe(200);
        expect(cancelled.status).toBe(200);
        const state = await env.DB.prepare('SELECT status FROM bookings WHERE id = ?1')
          .bind(bookingId)
          .first<{ status: string }>();
        expect(state?.status).toBe('cancelled');
        const payment = await paymentOf(`pi_for_${bookingId}`);
        expect(payment?.amount_cents).toBe(15000);
        // Cancelled before the payment (refunded as it arrives) or after it (refunded by the cancellation).
        expect(payment?.refund_status).toBe('succeeded');
        const asked = stub.refundRequests().filter((r) => r.headers.get('Idempotency-Key') === `refund:${bookingId}`);
        expect(asked).toHaveLength(1);
      }
    });

    it('pays a family visit’s bookings from one intent, a line each, and refunds one member’s line only', async () => {
      const [a, b] = [await newBooking(), await newBooking()];
      const intentId = `pi_family_${a.slice(0, 8)}`;
      for (const id of [a, b]) {
        await env.DB.prepare(
          "UPDATE bookings SET family_visit_id = 'fv-' || ?2, payment_intent_id = ?2 || ':' || id WHERE id = ?1",
        )
          .bind(id, intentId)
          .run();
      }
      const family = {
        id: intentId,
        amount: 30000,
        status: 'succeeded',
        metadata: { familyVisitId: `fv-${intentId}`, bookingIds: `${a},${b}` },
      };
      const response = await deliver(event('payment_intent.succeeded', a, family as never));
      expect(await response.json()).toEqual({ received: true, duplicate: false });
      expect(await bookingState(a)).toMatchObject({ paid: 1, payments: 1 });
      expect(await bookingState(b)).toMatchObject({ paid: 1, payments: 1 });
      expect(await paymentOf(`${intentId}:${b}`)).toEqual({
        booking_id: b,
        amount_cents: 15000,
        refund_status: null,
        refund_reason: null,
      });

      // One member cancels: Stripe is asked for their line of the payment, under the booking's own key.
      expect((await cancel(a, STRIPE)).status).toBe(200);
      const [asked] = stub.refundRequests();
      const form = new URLSearchParams(asked?.body);
      expect([form.get('payment_intent'), form.get('amount'), asked?.headers.get('Idempotency-Key')]).toEqual([
        intentId,
        '15000',
        `refund:${a}`,
      ]);
      expect(await paymentOf(`${intentId}:${a}`)).toMatchObject({
        refund_status: 'succeeded',
        refund_reason: 'cancelled',
      });
      // Stripe's later word on that refund, naming the booking, moves that line only.
      const failed = {
        id: 'evt_family_refund_failed',
        object: 'event',
        api_version: '2026-10-28',
        created: 1795100000,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'refund.failed',
        data: {
          object: {
            ...documentedRefund,
            payment_intent: intentId,
            amount: 15000,
            status: 'failed',
            failure_reason: 'lost_or_stolen_card',
            metadata: { bookingId: a },
          },
        },
      };
      expect(await (await deliver(failed)).json()).toEqual({ received: true, duplicate: false });
      expect(await paymentOf(`${intentId}:${a}`)).toMatchObject({ refund_status: 'failed' });
      expect(await paymentOf(`${intentId}:${b}`)).toMatchObject({ refund_status: null });
      expect(await bookingState(b)).toMatchObject({ paid: 1 });
    });

    it('refuses a bad signature and a missing one (400), changing nothing', async () => {
      const bookingId = await newBooking();
      const payload = event('payment_intent.succeeded', bookingId, { status: 'succeeded' });
      const forged = await deliver(payload, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`);
      expect(forged.status).toBe(400);
      expect(await forged.json()).toEqual({ acknowledged: false, message: 'Invalid Stripe signature' });
      const unsigned = await call(
        '/api/stripe/webhook',
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) },
        STRIPE,
      );
      expect(unsigned.status).toBe(400);
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 0 });
    });

    it('acknowledges and ignores other event types', async () => {
      const response = await deliver({
        ...event('customer.created', 'x'),
        data: { object: { id: 'cus_1', object: 'customer' } },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, ignored: 'customer.created' });
    });
  });
});

describe('Stripe out of reach', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Every request to Stripe ends the way `answer` says; anything else goes out as usual. */
  function stripeAnswers(answer: () => Promise<Response>) {
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      return request.url.startsWith('https://api.stripe.com/') ? answer() : realFetch(input, init);
    });
  }

  const stripeError = (status: number, type: string) => () =>
    Promise.resolve(Response.json({ error: { type, message: 'Stripe’s own words' } }, { status }));
  const outages: [string, () => Promise<Response>, number, string][] = [
    ['the network fails', () => Promise.reject(new TypeError('Network connection lost.')), 502, 'cannot be reached'],
    ['Stripe answers 500', stripeError(500, 'api_error'), 502, 'cannot be reached'],
    ['Stripe answers 503', stripeError(503, 'api_error'), 502, 'cannot be reached'],
    ['Stripe rate-limits the clinic', stripeError(429, 'rate_limit_error'), 503, 'is busy'],
  ];
  for (const [what, answer, status, words] of outages) {
    it(`answers ${status} with Retry-After and a plain message when ${what}`, async () => {
      const bookingId = await newBooking();
      stripeAnswers(answer);
      const response = await call(
        '/api/create-payment-intent',
        {
          method: 'POST',
          headers: { ...patient, 'Content-Type': 'application/json' },
          body: JSON.stringify({ bookingId }),
        },
        STRIPE,
      );
      expect(response.status).toBe(status);
      expect(response.headers.get('Retry-After')).toBe('30');
      expect(await response.json()).toEqual({
        acknowledged: false,
        message: expect.stringContaining(`The payment service ${words}`),
      });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payment_intent_id: null, payments: 0 });
    });
  }

  it('answers POST /api/payments with 502 and records nothing while Stripe cannot be reached', async () => {
    const bookingId = await newBooking();
    await env.DB.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1')
      .bind(bookingId, `pi_unreachable_${bookingId}`)
      .run();
    stripeAnswers(() => Promise.reject(new TypeError('Network connection lost.')));
    const response = await call(
      '/api/payments',
      {
        method: 'POST',
        headers: { ...patient, 'Content-Type': 'application/json' },
        body: JSON.stringify({ transactionId: `pi_unreachable_${bookingId}`, bookingId }),
      },
      STRIPE,
    );
    expect(response.status).toBe(502);
    expect(response.headers.get('Retry-After')).toBe('30');
    expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 0 });
  });
});

describe('demo provider (no Stripe keys)', () => {
  const card = (number: string, extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
    number,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
    ...extra,
  });

  it('says so to anyone who asks which provider takes cards', async () => {
    const response = await call('/api/payments/provider');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ provider: 'demo', publishableKey: null });
  });

  async function secretFor(bookingId: string): Promise<string> {
    const response = await postJson('/api/create-payment-intent', { bookingId }, patient);
    const body = await response.json<{ clientSecret: string; provider: string; publishableKey: null }>();
    expect(body).toMatchObject({ provider: 'demo', publishableKey: null, amount: 150 });
    return body.clientSecret;
  }

  const confirm = (clientSecret: string, cardDetails: ReturnType<typeof card>, headers = patient) =>
    postJson('/api/demo-payments/confirm', { clientSecret, card: cardDetails }, headers);

  it('pays with 4242 4242 4242 4242, and the booking is paid once', async () => {
    const bookingId = await newBooking();
    const secret = await secretFor(bookingId);
    const response = await confirm(secret, card('4242 4242 4242 4242'));
    expect(response.status).toBe(200);
    const { paymentIntent } = await response.json<{ paymentIntent: { id: string; status: string } }>();
    expect(paymentIntent.status).toBe('succeeded');
    // The payment page (docs/product-payments.md#payment) then records the payment; the Worker checks it with the provider.
    const recorded = await postJson(
      '/api/payments',
      { transactionId: paymentIntent.id, bookingId, price: 150, email: 'patient@clinic.test' },
      patient,
    );
    expect(recorded.status).toBe(200);
    expect(await bookingState(bookingId)).toMatchObject({ paid: 1, payments: 1 });
    expect((await confirm(secret, card('4242424242424242'))).status).toBe(409);
    expect((await postJson('/api/create-payment-intent', { bookingId }, patient)).status).toBe(409);
  });

  const declines: [string, ReturnType<typeof card>, number, string][] = [
    ['a declined card', card('4000 0000 0000 0002'), 402, 'Your card was declined.'],
    ['insufficient funds', card('4000000000009995'), 402, 'Your card has insufficient funds.'],
    ['a past expiry', card('4242424242424242', { expYear: 2020 }), 400, "Your card's expiration date is in the past."],
    ['a short CVC', card('4242424242424242', { cvc: '1' }), 400, "Your card's security code is incomplete."],
    ['a mistyped number', card('4242 4242 4242 4241'), 400, 'Your card number is incorrect.'],
  ];
  for (const [what, details, status, message] of declines) {
    it(`answers ${what} with ${status} and Stripe's message; the booking stays unpaid`, async () => {
      const bookingId = await newBooking();
      const response = await confirm(await secretFor(bookingId), details);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ acknowledged: false, message });
      expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 0 });
      const recorded = await postJson(
        '/api/payments',
        { transactionId: `pi_demo_${bookingId.replaceAll('-', '')}`, bookingId },
        patient,
      );
      expect(recorded.status).toBe(402);
    });
  }

  it('refuses a forged client secret (400) and another patient (403)', async () => {
    const bookingId = await newBooking();
    const secret = await secretFor(bookingId);
    const forged = secret.replace(/_secret_.*/, `_secret_${'0'.repeat(24)}`);
    expect((await confirm(forged, card('4242424242424242'))).status).toBe(400);
    expect((await confirm(secret, card('4242424242424242'), other)).status).toBe(403);
    expect(await bookingState(bookingId)).toMatchObject({ paid: 0 });
  });

  it('charges a booking cancelled after its payment page opened, as Stripe would, and refunds it at once', async () => {
    const bookingId = await newBooking();
    const secret = await secretFor(bookingId);
    expect((await cancel(bookingId)).status).toBe(200);
    const response = await confirm(secret, card('4242424242424242'));
    expect(response.status).toBe(200);
    const { paymentIntent } = await response.json<{ paymentIntent: { id: string; status: string } }>();
    expect(paymentIntent.status).toBe('succeeded');
    const recorded = await postJson('/api/payments', { transactionId: paymentIntent.id, bookingId }, patient);
    expect(recorded.status).toBe(200);
    expect(await recorded.json()).toMatchObject({
      refundDue: true,
      message: 'The booking was cancelled before the payment arrived. $150.00 has been refunded to your card.',
    });
    expect(await bookingState(bookingId)).toMatchObject({ paid: 0, payments: 1 });
    expect(await paymentOf(paymentIntent.id)).toMatchObject({
      refund_status: 'succeeded',
      refund_reason: 'booking_not_active',
    });
  });

  it('has no webhook endpoint without Stripe', async () => {
    const response = await postJson('/api/stripe/webhook', {}, { 'Stripe-Signature': 't=1,v1=0' });
    expect(response.status).toBe(404);
  });
});

describe('GET /api/refunds (payments given back or to give back)', () => {
  it('lists each refunded payment with its booking, patient, amount, time and state, for admins only', async () => {
    const bookingId = await newBooking();
    const secret = (
      await (await postJson('/api/create-payment-intent', { bookingId }, patient)).json<{ clientSecret: string }>()
    ).clientSecret;
    const paid = await newBooking();
    const paidSecret = (
      await (
        await postJson('/api/create-payment-intent', { bookingId: paid }, patient)
      ).json<{ clientSecret: string }>()
    ).clientSecret;
    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
    await postJson('/api/demo-payments/confirm', { clientSecret: paidSecret, card }, patient);
    expect((await cancel(bookingId)).status).toBe(200);
    await postJson('/api/demo-payments/confirm', { clientSecret: secret, card }, patient);
    const transactionId = `pi_demo_${bookingId.replaceAll('-', '')}`;
    const booking = await env.DB.prepare('SELECT appointment_date FROM bookings WHERE id = ?1')
      .bind(bookingId)
      .first<{ appointment_date: string }>();

    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const response = await call('/api/refunds', { headers: admin });
    expect(response.status).toBe(200);
    const refunds = await response.json<Record<string, unknown>[]>();
    const entry = refunds.find((r) => r.transactionId === transactionId);
    expect(entry).toEqual({
      _id: expect.any(String),
      transactionId,
      provider: 'demo',
      amount: 150,
      currency: 'usd',
      paidAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      refundStatus: 'succeeded',
      reason: 'The booking was cancelled before the payment arrived',
      failure: null,
      patientName: 'Jamie Patient',
      // Given back to whoever paid, in the way they paid (a parent, for a child's visit).
      payer: 'Jamie Patient',
      paidWith: 'Visa ending in 4242',
      email: 'patient@clinic.test',
      bookingId,
      treatment: 'Cavity Filling',
      appointmentDate: format(new Date(`${booking!.appointment_date}T12:00:00`), 'PP'),
      slot: '09.30 AM - 10.30 AM',
      bookingStatus: 'cancelled',
    });
    // A payment that paid its booking (and was not refunded) is not listed.
    expect(refunds.some((r) => r.bookingId === paid)).toBe(false);

    expect((await call('/api/refunds', { headers: patient })).status).toBe(403);
    expect((await call('/api/refunds')).status).toBe(401);
  });
});
