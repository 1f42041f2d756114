import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenFor, bearer, call, clinicDay, mailbox, newPatient, pinClock, seed, sendJson } from './helpers.ts';
import { documentedSetup, STRIPE, signedDelivery, stripeEvent, stubStripe } from './stripe-stub.ts';

// Issue 45 with Stripe as the provider of record: a card saved through a SetupIntent (the card
// arrives with Stripe's setup_intent.succeeded), and a fee charged off-session to it, as Stripe's
// API reference documents each request and answer.

const box = mailbox();
const BINDINGS = { ...STRIPE, MAILER: box.mailer };
let admin: Record<string, string>;

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body, BINDINGS);

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  const added = await send('POST', '/api/treatments', admin, {
    name: 'Stripe card visit',
    price: 150,
    durationMinutes: 30,
    specialty: 'General Dentistry',
    payment: 'card',
  });
  expect(added.status).toBe(201);
  expect((await send('PUT', '/api/clinic/policy', admin, { noShowFee: 40 })).status).toBe(200);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function deliver(event: object) {
  const { body, signature } = await signedDelivery(event);
  return call(
    '/api/stripe/webhook',
    { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body },
    BINDINGS,
  );
}

/** Saves Stripe's test payment method `paymentMethod` for the patient: the setup, then Stripe's event. */
async function saveWithStripe(auth: Record<string, string>, paymentMethod: string) {
  const setup = await send('POST', '/api/users/me/cards', auth);
  expect(setup.status).toBe(201);
  const answer = await setup.json<{ clientSecret: string; provider: string; publishableKey: string }>();
  const id = answer.clientSecret.replace(/_secret_.*$/, '');
  const event = stripeEvent('setup_intent.succeeded', {
    ...documentedSetup,
    id,
    status: 'succeeded',
    payment_method: paymentMethod,
  });
  return { answer, event, delivered: await deliver(event) };
}

/**
 * The patient's card visit tomorrow at `slot`, then the clock pinned that afternoon and the visit
 * marked a no-show by the desk; answers it, with the patient's token of the pinned time.
 */
async function missedVisit(patient: { email: string; auth: Record<string, string> }, slot: string) {
  const booked = await send('POST', '/api/bookings', patient.auth, {
    treatment: 'Stripe card visit',
    appointmentDate: clinicDay(1),
    slot,
    phone: '555 0100',
  });
  expect(booked.status, await booked.clone().text()).toBe(201);
  const { insertedId } = await booked.json<{ insertedId: string }>();
  pinClock(`${clinicDay(1)}T21:00:00.000Z`);
  const desk = bearer(await accessTokenFor('admin@clinic.test'));
  expect((await send('POST', `/api/bookings/${insertedId}/attendance`, desk, { status: 'no_show' })).status).toBe(200);
  return { insertedId, auth: bearer(await accessTokenFor(patient.email)) };
}

describe('cards on file with Stripe', () => {
  it('creates one customer per account and an off-session SetupIntent; the card arrives with setup_intent.succeeded, once', async () => {
    const stripe = stubStripe();
    const patient = await newPatient('stripe-card');
    const first = await saveWithStripe(patient.auth, 'pm_card_visa_first');
    expect(first.answer).toMatchObject({ provider: 'stripe', publishableKey: STRIPE.STRIPE_PUBLISHABLE_KEY });
    expect(await first.delivered.json()).toEqual({ received: true });
    const second = await saveWithStripe(patient.auth, 'pm_card_mastercard');
    expect((await deliver(second.event)).status).toBe(200); // the same event again
    const customers = stripe.requests.filter((r) => r.url.endsWith('/v1/customers'));
    expect(customers).toHaveLength(1);
    expect(customers[0]?.headers.get('Idempotency-Key')).toBe(`customer-${patient.id}`);
    const setups = stripe.requests.filter((r) => r.url.endsWith('/v1/setup_intents'));
    expect(setups.map((r) => new URLSearchParams(r.body).get('usage'))).toEqual(['off_session', 'off_session']);
    expect(new Set(setups.map((r) => new URLSearchParams(r.body).get('customer'))).size).toBe(1);
    const cards = await (await send('GET', '/api/users/me/cards', patient.auth)).json<Record<string, unknown>[]>();
    expect(cards.map((c) => [c.brand, c.last4]).sort()).toEqual([
      ['mastercard', '4444'],
      ['visa', '4242'],
    ]);
  });

  it('ignores a setup that is not one of ours', async () => {
    stubStripe();
    const stray = stripeEvent('setup_intent.succeeded', {
      ...documentedSetup,
      id: 'seti_not_ours',
      status: 'succeeded',
      payment_method: 'pm_card_visa',
    });
    expect(await (await deliver(stray)).json()).toEqual({ received: true, ignored: 'not a card setup of ours' });
  });

  it.each([
    ['pm_card_visa', 'charged', 'Charged: $40.00 missed-appointment fee'],
    ['pm_card_authenticationRequired', 'unpaid', 'Please pay the missed-appointment fee: $40.00'],
    ['pm_card_chargeDeclined', 'unpaid', 'Please pay the missed-appointment fee: $40.00'],
  ])('a no-show charges %s off-session under the fee’s key: %s', async (paymentMethod, status, subject) => {
    const stripe = stubStripe();
    const patient = await newPatient('stripe-fee');
    await saveWithStripe(patient.auth, paymentMethod);
    const slot = { pm_card_visa: '09.00', pm_card_authenticationRequired: '09.30', pm_card_chargeDeclined: '10.00' }[
      paymentMethod
    ];
    const end = { '09.00': '09.30', '09.30': '10.00', '10.00': '10.30' }[slot ?? '09.00'];
    const { insertedId, auth } = await missedVisit(patient, `${slot} AM - ${end} AM`);
    const charges = stripe.requests.filter(
      (r) => r.url.endsWith('/v1/payment_intents') && new URLSearchParams(r.body).get('off_session') === 'true',
    );
    expect(charges).toHaveLength(1);
    const form = new URLSearchParams(charges[0]?.body);
    expect([form.get('amount'), form.get('confirm'), form.get('payment_method')]).toEqual([
      '4000',
      'true',
      paymentMethod,
    ]);
    expect(form.get('customer')).toMatch(/^cus_fixture_/);
    expect(charges[0]?.headers.get('Idempotency-Key')).toBe(`fee:${insertedId}:no_show`);
    const statement = await (await send('GET', '/api/users/me/statement', auth)).json<{
      fees: { status: string; card: string | null }[];
    }>();
    expect(statement.fees).toMatchObject([{ status }]);
    expect(box.to(patient.email).some((mail) => mail.subject === subject)).toBe(true);
  });
});

describe('a fee’s pay link with Stripe', () => {
  it('takes payment_intent.succeeded of the fee’s intent as the fee paid, once', async () => {
    const stripe = stubStripe();
    const patient = await newPatient('stripe-pay-link');
    await saveWithStripe(patient.auth, 'pm_card_authenticationRequired_pay_link');
    const { auth } = await missedVisit(patient, '11.00 AM - 11.30 AM');
    const fees = async () =>
      (await (await send('GET', '/api/users/me/statement', auth)).json<{ fees: { _id: string; status: string }[] }>())
        .fees;
    const [fee] = await fees();
    expect(fee?.status).toBe('unpaid');
    const intent = await send('POST', '/api/create-payment-intent', auth, { feeId: fee?._id });
    expect(await intent.json()).toMatchObject({ provider: 'stripe', amount: 40 });
    const created = stripe.requests.filter(
      (r) => r.url.endsWith('/v1/payment_intents') && new URLSearchParams(r.body).get('off_session') !== 'true',
    );
    expect(new URLSearchParams(created.at(-1)?.body).get('metadata[feeId]')).toBe(fee?._id);
    const [paid] = [...stripe.intents.values()].filter((i) => i.metadata.feeId === fee?._id);
    const event = stripeEvent('payment_intent.succeeded', { ...paid, status: 'succeeded' });
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: false });
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true });
    expect((await fees())[0]?.status).toBe('paid');
    expect(box.to(patient.email).some((mail) => mail.subject === 'Receipt: $40.00 missed-appointment fee')).toBe(true);
  });
});
