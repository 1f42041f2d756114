import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accessTokenFor,
  bearer,
  call,
  clinicDay,
  DEMO_CARD,
  mailbox,
  missedCardVisit,
  newPatient,
  optionsOn,
  payWithDemo,
  pinClock,
  runCron,
  saveDemoCard,
  seed,
  sendJson,
} from './helpers.ts';

// Issue 45: a payment rule per treatment (full, deposit, card, clinic), cards on file, and the
// no-show and late-cancel fees charged to them, walked as the patient, the desk and the cron see them.

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body, MAIL);

async function addTreatment(body: Record<string, unknown>): Promise<string> {
  const added = await send('POST', '/api/treatments', admin, {
    durationMinutes: 30,
    specialty: 'General Dentistry',
    ...body,
  });
  expect(added.status, await added.clone().text()).toBe(201);
  return (await added.json<{ insertedId: string }>()).insertedId;
}

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  await addTreatment({ name: 'Whitening consult', price: 100, payment: 'deposit', depositPercent: 30 });
  await addTreatment({ name: 'Implant consult', price: 150, payment: 'card' });
  await addTreatment({ name: 'Gum check', price: 90, payment: 'clinic' });
  const policy = await send('PUT', '/api/clinic/policy', admin, { noShowFee: 40, lateCancelFee: 25 });
  expect(policy.status).toBe(200);
  expect(await policy.json()).toMatchObject({ noShowFee: 40, lateCancelFee: 25 });
});

afterEach(() => {
  vi.useRealTimers();
});

async function book(auth: Record<string, string>, treatment: string, days: number, slot = '09.00 AM - 09.30 AM') {
  return send('POST', '/api/bookings', auth, { treatment, appointmentDate: clinicDay(days), slot, phone: '555 0100' });
}

async function bookingOf(auth: Record<string, string>, id: string) {
  const response = await send('GET', `/api/bookings/${id}`, auth);
  expect(response.status).toBe(200);
  return response.json<{
    paid: boolean;
    payBy: string | null;
    payAtClinic: boolean;
    paymentRule: string;
    deposit: number | null;
    balanceDue: number;
    status: string;
  }>();
}

describe('a payment rule per treatment', () => {
  it('is set on the Treatments screen and shown with each free time before booking', async () => {
    const list = await (await send('GET', '/api/treatments', admin)).json<Record<string, unknown>[]>();
    expect(list.find((t) => t.name === 'Whitening consult')).toMatchObject({ payment: 'deposit', depositPercent: 30 });
    expect(list.find((t) => t.name === 'Teeth Cleaning')).toMatchObject({ payment: 'full', depositPercent: null });
    const options = (await optionsOn(clinicDay(10))) as unknown as Record<string, unknown>[];
    expect(options.find((o) => o.name === 'Whitening consult')).toMatchObject({ payment: 'deposit', deposit: 30 });
    expect(options.find((o) => o.name === 'Implant consult')).toMatchObject({ payment: 'card', deposit: null });
    expect(options.find((o) => o.name === 'Gum check')).toMatchObject({ payment: 'clinic', deposit: null });
  });

  it('refuses a deposit without its share, and a share without a deposit, changing nothing', async () => {
    const noShare = await send('POST', '/api/treatments', admin, {
      name: 'No share',
      price: 50,
      durationMinutes: 30,
      specialty: 'General Dentistry',
      payment: 'deposit',
    });
    expect(noShare.status).toBe(400);
    expect((await noShare.json<{ message: string }>()).message).toContain('depositPercent');
    const cleaning = 'teeth-cleaning';
    const share = await send('PUT', `/api/treatments/${cleaning}`, admin, { depositPercent: 20 });
    expect(share.status).toBe(400);
    const wrong = await send('PUT', `/api/treatments/${cleaning}`, admin, { payment: 'later' });
    expect(wrong.status).toBe(400);
    const list = await (await send('GET', '/api/treatments', admin)).json<Record<string, unknown>[]>();
    expect(list.find((t) => t._id === cleaning)).toMatchObject({ payment: 'full', depositPercent: null });
  });

  it('deposit: the hold asks for the share, the payment takes it, the rest waits for the desk', async () => {
    const patient = await newPatient('deposit');
    const booked = await book(patient.auth, 'Whitening consult', 10);
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const before = await bookingOf(patient.auth, insertedId);
    expect(before).toMatchObject({ paymentRule: 'deposit', deposit: 30, paid: false });
    expect(before.payBy).not.toBeNull();
    const confirmation = box.to(patient.email).find((m) => m.subject.startsWith('Booked:'));
    expect(confirmation?.text).toContain('Please pay $30.00 (a deposit; the rest at the desk) by');
    const intent = await send('POST', '/api/create-payment-intent', patient.auth, { bookingId: insertedId });
    expect(await intent.json()).toMatchObject({ amount: 30 });
    await payWithDemo(insertedId, patient.auth, undefined, MAIL);
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ paid: true, payBy: null });
    const receipt = box.to(patient.email).find((m) => m.subject.startsWith('Receipt:'));
    expect(receipt?.subject).toBe('Receipt: $30.00 for Whitening consult');
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ balanceDue: 70 });

    // The desk takes the rest, once, however many clicks arrive together.
    const takes = await Promise.all(
      Array.from({ length: 5 }, () =>
        send('POST', `/api/bookings/${insertedId}/desk-payment`, admin, { method: 'cash' }),
      ),
    );
    expect(takes.map((t) => t.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await takes[0]?.json()).toMatchObject({
      message: `$70.00, the rest after the deposit, paid in cash at the desk; the receipt is on its way to ${patient.email}`,
    });
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM payments WHERE booking_id = ?1 AND purpose = 'balance'",
    )
      .bind(insertedId)
      .first('n');
    expect(rows).toBe(1);
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ balanceDue: 0, paid: true });
    expect(box.to(patient.email).filter((m) => m.subject === 'Receipt: $70.00 for Whitening consult')).toHaveLength(1);
    const statement = await (await send('GET', '/api/users/me/statement', patient.auth)).json<{ balance: number }>();
    expect(statement.balance).toBe(0);
    expect((await send('POST', `/api/bookings/${insertedId}/desk-payment`, admin, { method: 'card' })).status).toBe(
      200,
    );
  });

  it('deposit, paid whole at the desk: nothing is left to take', async () => {
    const patient = await newPatient('deposit-desk');
    const booked = await book(patient.auth, 'Whitening consult', 13);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const paid = await send('POST', `/api/bookings/${insertedId}/desk-payment`, admin, { method: 'card' });
    expect(await paid.json()).toMatchObject({ message: expect.stringMatching(/^\$100\.00 paid by card at the desk/) });
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ paid: true, balanceDue: 0 });
    const again = await send('POST', `/api/bookings/${insertedId}/desk-payment`, admin, { method: 'cash' });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe('This booking is already paid');
  });

  it('clinic: no deadline, and the visit stays through a cron run a week later', async () => {
    const patient = await newPatient('at-clinic');
    const booked = await book(patient.auth, 'Gum check', 11);
    expect(booked.status).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({
      paymentRule: 'clinic',
      payBy: null,
      payAtClinic: true,
    });
    await runCron(Date.now() + 7 * 24 * 3600_000, MAIL);
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ status: 'active' });
  });
});

describe('cards on file', () => {
  it('a card booking needs a saved card, then keeps its time with no deadline through a cron run a week later', async () => {
    const patient = await newPatient('card-keeps');
    const refused = await book(patient.auth, 'Implant consult', 12);
    expect(refused.status).toBe(409);
    expect((await refused.json<{ message: string }>()).message).toContain('save a card first');
    const card = await saveDemoCard(patient.auth);
    expect(card).toMatchObject({ brand: 'visa', last4: '4242' });
    const cards = await (await send('GET', '/api/users/me/cards', patient.auth)).json();
    expect(cards).toEqual([{ _id: card._id, brand: 'visa', last4: '4242', expMonth: 12, expYear: DEMO_CARD.expYear }]);
    const booked = await book(patient.auth, 'Implant consult', 12);
    expect(booked.status).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ paymentRule: 'card', payBy: null, paid: false });
    await runCron(Date.now() + 7 * 24 * 3600_000, MAIL);
    expect(await bookingOf(patient.auth, insertedId)).toMatchObject({ status: 'active' });
  });

  it('confirming a setup twice saves one card; nobody else can confirm it or remove it', async () => {
    const patient = await newPatient('card-once');
    const other = await newPatient('card-other');
    const { clientSecret } = await (await send('POST', '/api/users/me/cards', patient.auth)).json<{
      clientSecret: string;
    }>();
    const confirm = (auth: Record<string, string>) =>
      send('POST', '/api/demo-payments/confirm', auth, { clientSecret, card: DEMO_CARD });
    expect((await confirm(other.auth)).status).toBe(404);
    expect((await confirm(patient.auth)).status).toBe(200);
    expect((await confirm(patient.auth)).status).toBe(200);
    const cards = await (await send('GET', '/api/users/me/cards', patient.auth)).json<{ _id: string }[]>();
    expect(cards).toHaveLength(1);
    expect((await send('DELETE', `/api/users/me/cards/${cards[0]?._id}`, other.auth)).status).toBe(404);
    expect((await send('DELETE', `/api/users/me/cards/${cards[0]?._id}`, patient.auth)).status).toBe(200);
    expect(await (await send('GET', '/api/users/me/cards', patient.auth)).json()).toEqual([]);
  });

  it('a card that cannot be saved says why, and saves nothing', async () => {
    const patient = await newPatient('card-bad');
    const { clientSecret } = await (await send('POST', '/api/users/me/cards', patient.auth)).json<{
      clientSecret: string;
    }>();
    const declined = await send('POST', '/api/demo-payments/confirm', patient.auth, {
      clientSecret,
      card: { ...DEMO_CARD, number: '4000 0000 0000 0002' },
    });
    expect(declined.status).toBe(402);
    expect((await declined.json<{ message: string }>()).message).toBe('Your card was declined.');
    expect(await (await send('GET', '/api/users/me/cards', patient.auth)).json()).toEqual([]);
  });
});

const missed = (prefix: string, slot: string, number?: string) =>
  missedCardVisit(prefix, 'Implant consult', { number, slot }, MAIL);

const statementOf = async (auth: Record<string, string>) =>
  (await send('GET', '/api/users/me/statement', auth)).json<{
    balance: number;
    fees: { _id: string; status: string; amount: number; card: string | null }[];
    people: { lines: { kind: string; amount: number; balance: number; description: string }[] }[];
  }>();

describe('no-show and late-cancel fees', () => {
  it('a no-show charges the fee once, however many marks arrive at once', async () => {
    const visit = await missed('no-show', '09.00 AM - 09.30 AM');
    const marks = await Promise.all(
      Array.from({ length: 20 }, () =>
        send('POST', `/api/bookings/${visit.id}/attendance`, visit.desk, { status: 'no_show' }),
      ),
    );
    expect(marks.every((m) => m.status === 200 || m.status === 409)).toBe(true);
    const statement = await statementOf(visit.auth);
    expect(statement.fees).toMatchObject([{ status: 'charged', amount: 40, card: 'Visa ending in 4242' }]);
    const fees = await env.DB.prepare('SELECT count(*) AS n FROM fees WHERE booking_id = ?1').bind(visit.id).first('n');
    expect(fees).toBe(1);
    const mails = box.to(visit.email).filter((m) => m.subject.startsWith('Charged:'));
    expect(mails.map((m) => m.subject)).toEqual(['Charged: $40.00 missed-appointment fee']);
    expect(mails[0]?.text).toContain('We charged the missed-appointment fee of $40.00');
    // The visit's price is owed at the desk; the fee was charged and paid.
    expect(statement.people[0]?.lines.map((l) => [l.kind, l.amount, l.balance])).toEqual([
      ['charge', 150, 150],
      ['fee', 40, 190],
      ['payment', 40, 150],
    ]);
  });

  it('the desk waives a charged fee: it is refunded, once, and the patient is told', async () => {
    const visit = await missed('waive', '09.30 AM - 10.00 AM');
    expect((await send('POST', `/api/bookings/${visit.id}/attendance`, visit.desk, { status: 'no_show' })).status).toBe(
      200,
    );
    const [fee] = (await statementOf(visit.auth)).fees;
    const waived = await send('POST', `/api/fees/${fee?._id}/waive`, visit.desk);
    expect(await waived.json()).toMatchObject({
      refunded: true,
      message: "Fee waived: $40.00 refunded to the patient's card",
    });
    expect((await send('POST', `/api/fees/${fee?._id}/waive`, visit.desk)).status).toBe(409);
    expect((await send('POST', `/api/fees/${fee?._id}/waive`, visit.auth)).status).toBe(403);
    const mail = box.to(visit.email).filter((m) => m.subject.startsWith('Waived:'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain('and refunded $40.00 to Visa ending 4242');
    const statement = await statementOf(visit.auth);
    expect(statement.fees[0]?.status).toBe('waived');
    expect(statement.balance).toBe(150);
    // The desk's schedule shows the fee it waived, and the fee the patient accepted.
    // The clock is pinned on the visit's day.
    const schedule = await send('GET', `/api/schedule?date=${clinicDay(0)}`, visit.desk);
    expect(schedule.status, await schedule.clone().text()).toBe(200);
    const day = await schedule.json<{
      bookings: { _id: string; noShowFee: number; fee: { status: string; amount: number } | null }[];
    }>();
    expect(day.bookings.find((b) => b._id === visit.id)).toMatchObject({
      noShowFee: 40,
      fee: { status: 'waived', amount: 40 },
    });
  });

  it('waived with the mark, nothing is charged', async () => {
    const visit = await missed('waive-first', '10.00 AM - 10.30 AM');
    const mark = await send('POST', `/api/bookings/${visit.id}/attendance`, visit.desk, {
      status: 'no_show',
      waiveFee: true,
    });
    expect(mark.status).toBe(200);
    expect((await statementOf(visit.auth)).fees).toMatchObject([{ status: 'waived', card: null }]);
    expect(box.to(visit.email).filter((m) => m.subject.startsWith('Charged:'))).toEqual([]);
  });

  it.each([
    ['is declined', '4000 0000 0000 0341', 'The card on file was declined', '10.30 AM - 11.00 AM'],
    [
      'needs its holder',
      '4000 0027 6000 3184',
      'The bank asks the card holder to approve this charge',
      '11.00 AM - 11.30 AM',
    ],
  ])('a card that %s gets a pay link, and paying it settles the fee', async (_, number, why, slot) => {
    const visit = await missed('pay-link', slot, number);
    expect((await send('POST', `/api/bookings/${visit.id}/attendance`, visit.desk, { status: 'no_show' })).status).toBe(
      200,
    );
    const [fee] = (await statementOf(visit.auth)).fees;
    expect(fee).toMatchObject({ status: 'unpaid', card: null });
    const mail = box.to(visit.email).find((m) => m.subject.startsWith('Please pay'));
    expect(mail?.subject).toBe('Please pay the missed-appointment fee: $40.00');
    expect(mail?.text).toContain(why.charAt(0).toLowerCase() + why.slice(1));
    expect(mail?.text).toContain(`Pay $40.00: ${env.APP_URL}/dashboard/fees/${fee?._id}`);
    const shown = await send('GET', `/api/fees/${fee?._id}`, visit.auth);
    expect(await shown.json()).toMatchObject({ status: 'unpaid', amount: 40, failure: why });
    const intent = await send('POST', '/api/create-payment-intent', visit.auth, { feeId: fee?._id });
    expect(intent.status).toBe(200);
    const { clientSecret, amount } = await intent.json<{ clientSecret: string; amount: number }>();
    expect(amount).toBe(40);
    const paid = await send('POST', '/api/demo-payments/confirm', visit.auth, { clientSecret, card: DEMO_CARD });
    expect(paid.status).toBe(200);
    expect((await statementOf(visit.auth)).fees[0]?.status).toBe('paid');
    expect(box.to(visit.email).some((m) => m.subject === 'Receipt: $40.00 missed-appointment fee')).toBe(true);
    const again = await send('POST', '/api/create-payment-intent', visit.auth, { feeId: fee?._id });
    expect(again.status).toBe(409);
  });

  it('a late cancellation charges the late fee once; an early one charges nothing', async () => {
    const patient = await newPatient('late');
    await saveDemoCard(patient.auth);
    const late = await book(patient.auth, 'Implant consult', 1, '02.00 PM - 02.30 PM');
    const early = await book(patient.auth, 'Implant consult', 10, '02.00 PM - 02.30 PM');
    expect([late.status, early.status]).toEqual([201, 201]);
    const lateId = (await late.json<{ insertedId: string }>()).insertedId;
    const earlyId = (await early.json<{ insertedId: string }>()).insertedId;
    // Tomorrow at 7:00 (12:00 UTC, winter or summer) is inside the 24-hour window of its 2:00 PM visit.
    pinClock(`${clinicDay(1)}T12:00:00.000Z`);
    const auth = bearer(await accessTokenFor(patient.email));
    expect((await send('DELETE', `/api/bookings/${lateId}`, auth)).status).toBe(200);
    expect((await send('DELETE', `/api/bookings/${earlyId}`, auth)).status).toBe(200);
    const statement = await statementOf(auth);
    expect(statement.fees).toMatchObject([{ status: 'charged', amount: 25 }]);
    expect(
      box
        .to(patient.email)
        .filter((m) => m.subject.startsWith('Charged:'))
        .map((m) => m.subject),
    ).toEqual(['Charged: $25.00 late-cancellation fee']);
    // Both visits are off: only the fee was owed, and it is paid.
    expect(statement.balance).toBe(0);
    // The desk reads the same statement from the patient's record; nobody else can.
    const desk = bearer(await accessTokenFor('admin@clinic.test'));
    expect(await (await send('GET', `/api/users/${patient.id}/statement`, desk)).json()).toEqual(statement);
    expect((await send('GET', `/api/users/${patient.id}/statement`, auth)).status).toBe(403);
    expect((await send('GET', '/api/users/no-such-patient/statement', desk)).status).toBe(404);
  });
});

describe('bad input about money changes nothing', () => {
  it('answers 4xx for unknown fees, cards and setups', async () => {
    const patient = await newPatient('money-bad');
    expect((await send('GET', '/api/fees/no-such-fee', patient.auth)).status).toBe(404);
    expect((await send('POST', '/api/fees/no-such-fee/waive', admin)).status).toBe(404);
    expect((await send('DELETE', '/api/users/me/cards/no-such-card', patient.auth)).status).toBe(404);
    expect((await send('POST', '/api/create-payment-intent', patient.auth, { feeId: 'nope' })).status).toBe(404);
    expect(
      (await send('POST', '/api/create-payment-intent', patient.auth, { feeId: 'a', bookingId: 'b' })).status,
    ).toBe(400);
    const forged = await send('POST', '/api/demo-payments/confirm', patient.auth, {
      clientSecret: `seti_demo_${'0'.repeat(32)}_secret_${'0'.repeat(24)}`,
      card: DEMO_CARD,
    });
    expect(forged.status).toBe(400);
    expect((await send('PUT', '/api/clinic/policy', admin, { noShowFee: -1 })).status).toBe(400);
    expect((await send('PUT', '/api/clinic/policy', admin, { lateCancelFee: 12.5 })).status).toBe(400);
    expect(await (await call('/api/clinic/policy')).json()).toMatchObject({ noShowFee: 40, lateCancelFee: 25 });
  });
});
