import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accessTokenFor,
  bearer,
  clinicDay,
  mailbox,
  newPatient,
  payWithDemo,
  pinClock,
  postJson,
  seed,
  sendJson,
} from './helpers.ts';

// Issue 45: every refund, whoever started it, sends the account one notice with its amount. Each
// path is walked as it happens: the paid visit, the change that refunds it, the account's mailbox.

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  expect((await postJson('/api/chairs', { name: 'Chair 3' }, admin)).status).toBe(201);
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body, MAIL);

/** The account's refund notices: subject, and the sentence that says where the money went. */
const noticesTo = (email: string) =>
  box
    .to(email)
    .filter((mail) => mail.subject.startsWith('Refunded:'))
    .map((mail) => [mail.subject, String(mail.text).match(/We refunded [^\n]*/)?.[0]]);

/** A paid visit of `patient`, far enough ahead to be cancelled online. */
async function paidVisit(patient: { auth: Record<string, string> }, days: number, slot: string) {
  const booked = await send('POST', '/api/bookings', patient.auth, {
    treatment: 'Teeth Cleaning',
    appointmentDate: clinicDay(days),
    slot,
  });
  expect(booked.status, await booked.clone().text()).toBe(201);
  const { insertedId } = await booked.json<{ insertedId: string }>();
  await payWithDemo(insertedId, patient.auth, undefined, MAIL);
  return insertedId;
}

const ONE = [
  [
    'Refunded: $80.00 for Teeth Cleaning',
    'We refunded $80.00 for your Teeth Cleaning appointment to the card you paid with (Visa ending 4242).',
  ],
];

describe('a refund notice, once, on every path that refunds', () => {
  it('is announced in the cancellation of a paid visit', async () => {
    const patient = await newPatient('notice-announced');
    const id = await paidVisit(patient, 20, '11.00 AM - 11.30 AM');
    expect((await send('DELETE', `/api/bookings/${id}`, patient.auth)).status).toBe(200);
    const cancelled = box.to(patient.email).find((mail) => mail.subject.startsWith('Cancelled:'));
    expect(cancelled?.text).toContain('Your payment of $80.00 will be refunded.');
  });

  it('when the patient cancels', async () => {
    const patient = await newPatient('notice-patient');
    const id = await paidVisit(patient, 20, '09.00 AM - 09.30 AM');
    expect((await send('DELETE', `/api/bookings/${id}`, patient.auth)).status).toBe(200);
    expect(noticesTo(patient.email)).toEqual(ONE);
  });

  it('when the clinic cancels', async () => {
    const patient = await newPatient('notice-clinic');
    const id = await paidVisit(patient, 20, '10.00 AM - 10.30 AM');
    expect((await send('POST', `/api/bookings/${id}/cancel`, admin, { reason: 'The doctor is ill' })).status).toBe(200);
    expect(noticesTo(patient.email)).toEqual(ONE);
  });

  it('when a closure cancels the day', async () => {
    const patient = await newPatient('notice-closure');
    await paidVisit(patient, 21, '09.00 AM - 09.30 AM');
    const closed = await send('POST', '/api/closures', admin, {
      from: clinicDay(21),
      to: clinicDay(21),
      reason: 'A burst pipe',
      bookings: 'cancel',
    });
    expect(closed.status, await closed.clone().text()).toBe(201);
    expect(noticesTo(patient.email)).toEqual(ONE);
  });

  it('when the clinic erases the account: the cancellation, sent before the address goes, says so', async () => {
    const patient = await newPatient('notice-erased');
    await paidVisit(patient, 22, '09.00 AM - 09.30 AM');
    expect((await send('DELETE', `/api/users/${patient.id}`, admin)).status).toBe(200);
    const [cancelled, ...more] = box.to(patient.email).filter((mail) => mail.subject.startsWith('Cancelled:'));
    expect(more).toHaveLength(0);
    expect(cancelled?.text).toContain('Your payment of $80.00 will be refunded.');
    // The address is erased with the account: the refund's own notice has nowhere to go.
    expect(noticesTo(patient.email)).toEqual([]);
  });

  it('when one member of a family visit paid together cancels: the parent hears of that line only', async () => {
    const parent = await newPatient('notice-family');
    const kid = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Kid Notice',
      birthDate: '2016-04-02',
      relationship: 'child',
    }).then((r) => r.json<{ insertedId: string }>());
    const booked = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: clinicDay(23),
      slot: '11.00 AM - 11.30 AM',
      arrangement: 'back-to-back',
      members: [{ treatment: 'Teeth Cleaning' }, { patientId: kid.insertedId, treatment: 'Dental Check-up' }],
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const [mine, kids] = (await booked.json<{ insertedIds: [string, string] }>()).insertedIds;
    const { familyVisitId } = await send('GET', `/api/bookings/${kids}`, parent.auth).then((r) =>
      r.json<{ familyVisitId: string }>(),
    );
    const { clientSecret } = await send('POST', '/api/create-payment-intent', parent.auth, { familyVisitId }).then(
      (r) => r.json<{ clientSecret: string }>(),
    );
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };
    const confirmed = await send('POST', '/api/demo-payments/confirm', parent.auth, { clientSecret, card });
    const { paymentIntent } = await confirmed.json<{ paymentIntent: { id: string } }>();
    expect(
      (await send('POST', '/api/payments', parent.auth, { transactionId: paymentIntent.id, bookingId: mine })).status,
    ).toBe(200);
    expect((await send('DELETE', `/api/bookings/${kids}`, parent.auth)).status).toBe(200);
    expect(noticesTo(parent.email)).toEqual([
      [
        'Refunded: $45.00 for Dental Check-up',
        'We refunded $45.00 for your Dental Check-up appointment to the card you paid with (Visa ending 4242).',
      ],
    ]);
  });
});

describe('a refund notice by text, where the account takes texts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('texts the amount and the card once, never the treatment, beside the one mail', async () => {
    // Tomorrow at 10:00 or 11:00 on the clinic's clock: texts go out from 8:00 to 21:00.
    pinClock(`${clinicDay(1)}T15:00:00.000Z`);
    const patient = await newPatient('notice-text');
    const auth = bearer(await accessTokenFor(patient.email));
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    expect((await send('PUT', '/api/users/me/sms', auth, { phone, smsConsent: true })).status).toBe(200);
    // The pinned clock is a day ahead: the same date as the other tests' day 20.
    const id = await paidVisit({ auth }, 19, '02.00 PM - 02.30 PM');
    expect((await send('DELETE', `/api/bookings/${id}`, auth)).status).toBe(200);
    const { results } = await env.DB.prepare(
      "SELECT body FROM sms_log WHERE direction = 'out' AND phone = ?1 ORDER BY id",
    )
      .bind(phone)
      .all<{ body: string }>();
    const texts = results.map((row) => row.body).filter((body) => body.includes('refunded'));
    expect(texts).toEqual([
      'Smile Dental Clinic: we refunded $80.00 to Visa ending 4242; banks show it within 5 to 10 business days. Reply STOP to opt out.',
    ]);
    expect(noticesTo(patient.email)).toEqual(ONE);
  });
});
