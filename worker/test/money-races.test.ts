/**
 * Money is written once (docs/booking-engine.md#policies-carried-through-changes): every route that
 * records a payment or starts a refund is raced by 10 callers at once, as a double click, a retry
 * or two staff members would; each ends with one payment, one refund and one receipt or notice.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  DEMO_CARD,
  newPatient,
  payWithDemo,
  postJson,
  seed,
} from './helpers.ts';

const CALLERS = 10;
let admin: Record<string, string>;
let day = 30;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

/** A fresh unpaid Cavity Filling ($150) of a new patient, on a day of its own, well outside the free-cancellation window. */
async function unpaidBooking() {
  const patient = await newPatient('race');
  day += 1;
  const response = await bookAs(patient.auth, {
    treatment: 'Cavity Filling',
    appointmentDate: clinicDay(day),
    slot: '09.30 AM - 10.30 AM',
  });
  expect(response.status).toBe(201);
  return { patient, id: (await response.json<{ insertedId: string }>()).insertedId };
}

const times = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: CALLERS }, make));

async function moneyOf(bookingId: string) {
  const row = await env.DB.prepare(
    `SELECT b.paid, b.status,
       (SELECT count(*) FROM payments p WHERE p.booking_id = b.id) AS payments,
       (SELECT count(*) FROM payments p WHERE p.booking_id = b.id AND p.refund_status IS NOT NULL) AS refunds,
       (SELECT count(*) FROM audit_log a WHERE a.target_id = b.id AND a.action = 'payment.succeeded') AS paidRows,
       (SELECT count(*) FROM outbox m WHERE m.booking_id = b.id AND m.kind = 'receipt') AS receipts
     FROM bookings b WHERE b.id = ?1`,
  )
    .bind(bookingId)
    .first<{ paid: number; status: string; payments: number; refunds: number; paidRows: number; receipts: number }>();
  return row;
}

describe(`${CALLERS} callers at once`, () => {
  it('record one payment at the desk: one paid, no refund due, one audit row, one receipt', async () => {
    const { id } = await unpaidBooking();
    const answers = await times(() => postJson(`/api/bookings/${id}/desk-payment`, { method: 'cash' }, admin));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(statuses).toContain(200);
    expect(await moneyOf(id)).toMatchObject({ paid: 1, payments: 1, refunds: 0, paidRows: 1, receipts: 1 });
    const due = await (await call('/api/refunds', { headers: admin })).json<{ bookingId: string }[]>();
    expect(due.filter((r) => r.bookingId === id)).toEqual([]);
  });

  it('record one card payment however often the page records it (POST /api/payments)', async () => {
    const { patient, id } = await unpaidBooking();
    const intent = await postJson('/api/create-payment-intent', { bookingId: id }, patient.auth);
    const { clientSecret } = await intent.json<{ clientSecret: string }>();
    const confirmed = await postJson('/api/demo-payments/confirm', { clientSecret, card: DEMO_CARD }, patient.auth);
    const { paymentIntent } = await confirmed.json<{ paymentIntent: { id: string } }>();
    const answers = await times(() =>
      postJson('/api/payments', { transactionId: paymentIntent.id, bookingId: id }, patient.auth),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    expect(await moneyOf(id)).toMatchObject({ paid: 1, payments: 1, refunds: 0, paidRows: 1, receipts: 1 });
  });

  it('charge a card once however often the demo card form is sent', async () => {
    const { patient, id } = await unpaidBooking();
    const intent = await postJson('/api/create-payment-intent', { bookingId: id }, patient.auth);
    const { clientSecret } = await intent.json<{ clientSecret: string }>();
    const answers = await times(() =>
      postJson('/api/demo-payments/confirm', { clientSecret, card: DEMO_CARD }, patient.auth),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(await moneyOf(id)).toMatchObject({ paid: 1, payments: 1, refunds: 0, paidRows: 1, receipts: 1 });
  });

  it('refund once when the patient cancels a paid visit', async () => {
    const { patient, id } = await unpaidBooking();
    await payWithDemo(id, patient.auth);
    const answers = await times(() => call(`/api/bookings/${id}`, { method: 'DELETE', headers: patient.auth }));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(CALLERS - 1).fill(409)]);
    expect(await moneyOf(id)).toMatchObject({ status: 'cancelled', payments: 1, refunds: 1 });
  });

  it('refund once when the clinic cancels a paid visit', async () => {
    const { patient, id } = await unpaidBooking();
    await payWithDemo(id, patient.auth);
    const answers = await times(() => postJson(`/api/bookings/${id}/cancel`, { reason: 'The doctor is ill' }, admin));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(CALLERS - 1).fill(409)]);
    expect(await moneyOf(id)).toMatchObject({ status: 'cancelled', payments: 1, refunds: 1 });
  });

  it('erase an account once, refunding each paid visit once', async () => {
    const { patient, id } = await unpaidBooking();
    await payWithDemo(id, patient.auth);
    const answers = await times(() => call('/api/users/me', { method: 'DELETE', headers: patient.auth }));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 401 && s !== 404)).toEqual([]);
    expect(await moneyOf(id)).toMatchObject({ status: 'cancelled', payments: 1, refunds: 1 });
  });
});
