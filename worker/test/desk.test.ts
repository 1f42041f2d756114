import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  addSecondGeneralDentist,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  postJson,
  runCron,
  seed,
} from './helpers.ts';

// The clinic's own bookings (issue 25): a booking the front desk makes keeps its time until the
// patient pays at the desk; the desk records that payment; it may book the doctor the caller asks
// for, past the unpaid limit with a reason, and for a caller who has no email.

let admin: Record<string, string>;
const box = mailbox();
const MAIL = { MAILER: box.mailer };
const DAY = 24 * 3_600_000;
const CLEANING = 'Teeth Cleaning'; // 30 minutes, $80, General Dentistry (Dr. Sofia Alvarez)

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  await addSecondGeneralDentist();
});

const phoneBook = (body: Record<string, unknown>, bindings = {}) =>
  call(
    '/api/phone-bookings',
    { method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    { ...MAIL, ...bindings },
  );

interface Entry {
  _id: string;
  patientName: string;
  doctor: { _id: string } | null;
  paid: boolean;
  payment: 'clinic' | 'online' | null;
  payBy: string | null;
  status: string;
  cancelReason: string | null;
}

/** The day schedule's entry of one booking, as the front desk sees it. */
async function entryOf(date: string, id: string): Promise<Entry | undefined> {
  const response = await call(`/api/schedule?date=${date}`, { headers: admin });
  expect(response.status).toBe(200);
  const day = await response.json<{ bookings: Entry[] }>();
  return day.bookings.find((e) => e._id === id);
}

async function auditOf(action: string, targetId: string): Promise<{ after: Record<string, unknown> | null }[]> {
  const response = await call(`/api/audit?type=${action}&limit=100`, { headers: admin });
  expect(response.status).toBe(200);
  const { entries } = await response.json<{ entries: { target: { id: string }; after: Record<string, unknown> }[] }>();
  return entries.filter((e) => e.target.id === targetId);
}

describe('a phone booking for a caller without an account or an email', () => {
  it('keeps its time after the cron runs a day later, and a payment at the desk marks it paid with a receipt', async () => {
    const date = clinicDay(20);
    const response = await phoneBook({
      patient: { name: 'Walter Walkin' },
      phone: '555 0177',
      treatment: CLEANING,
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const booked = await response.json<{ insertedId: string; patientId: string; payBy: string | null }>();
    expect(booked.payBy).toBeNull();
    expect(await entryOf(date, booked.insertedId)).toMatchObject({
      patientName: 'Walter Walkin',
      paid: false,
      payment: 'clinic',
      payBy: null,
      status: 'active',
    });

    await runCron(Date.now() + DAY + 3_600_000, MAIL);
    expect(await entryOf(date, booked.insertedId)).toMatchObject({ status: 'active', paid: false });
    // No address, no mail: the confirmation and the reminders are dropped, none is sent.
    const dropped = await env.DB.prepare(
      "SELECT count(*) AS n FROM outbox WHERE booking_id = ?1 AND status = 'dropped'",
    )
      .bind(booked.insertedId)
      .first<number>('n');
    expect(dropped).toBeGreaterThan(0);
    expect(box.sent.filter((m) => String(m.to).endsWith('.invalid'))).toEqual([]);

    const paid = await call(
      `/api/bookings/${booked.insertedId}/desk-payment`,
      { method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' }, body: '{"method":"cash"}' },
      MAIL,
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await paid.json()).toMatchObject({ message: '$80.00 paid in cash at the desk' });
    expect(await entryOf(date, booked.insertedId)).toMatchObject({ paid: true, payment: null });
    const receipt = await call(`/api/bookings/${booked.insertedId}/receipt`, { headers: admin });
    expect(receipt.status).toBe(200);
    expect(await receipt.json()).toMatchObject({ amount: 80, provider: 'desk', method: 'cash', card: null });
    expect(await auditOf('payment.succeeded', booked.insertedId)).toHaveLength(1);

    const again = await postJson(`/api/bookings/${booked.insertedId}/desk-payment`, { method: 'card' }, admin);
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe('This booking is already paid');
  });

  it('needs the phone number, and answers 400 for a payment method the desk does not take', async () => {
    const base = { patient: { name: 'No Phone' }, treatment: CLEANING, appointmentDate: clinicDay(20) };
    const noPhone = await phoneBook({ ...base, slot: '10.00 AM - 10.30 AM' });
    expect(noPhone.status).toBe(400);
    const booked = await phoneBook({ ...base, phone: '555 0178', slot: '10.00 AM - 10.30 AM' });
    expect(booked.status).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    for (const body of [{ method: 'cheque' }, {}, { method: 1 }]) {
      expect((await postJson(`/api/bookings/${insertedId}/desk-payment`, body, admin)).status).toBe(400);
    }
    expect((await postJson('/api/bookings/no-such/desk-payment', { method: 'cash' }, admin)).status).toBe(404);
  });
});

describe('what the desk chooses', () => {
  it('books the doctor the caller asks for, and says so when that doctor is not free', async () => {
    const date = clinicDay(21);
    const slot = '11.00 AM - 11.30 AM';
    const caller = await newPatient('asks');
    const first = await phoneBook({
      patientId: caller.id,
      phone: '555 0180',
      treatment: CLEANING,
      appointmentDate: date,
      slot,
      doctorId: 'dr-second',
    });
    expect(first.status).toBe(201);
    const { insertedId } = await first.json<{ insertedId: string }>();
    expect((await entryOf(date, insertedId))?.doctor?._id).toBe('dr-second');

    const other = await newPatient();
    const taken = await phoneBook({
      patientId: other.id,
      phone: '555 0181',
      treatment: CLEANING,
      appointmentDate: date,
      slot,
      doctorId: 'dr-second',
    });
    expect(taken.status).toBe(409);
    expect((await taken.json<{ message: string }>()).message).toBe(
      'Dr. Second is not free at this time; choose another time or any doctor',
    );
    // The orthodontist does not clean teeth.
    const wrong = await phoneBook({
      patientId: other.id,
      phone: '555 0181',
      treatment: CLEANING,
      appointmentDate: date,
      slot,
      doctorId: 'dr-hiro-tanaka',
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ message: string }>()).message).toBe(
      'Dr. Hiro Tanaka does not perform Teeth Cleaning; choose another doctor or any doctor',
    );
    const any = await phoneBook({
      patientId: other.id,
      phone: '555 0181',
      treatment: CLEANING,
      appointmentDate: date,
      slot,
    });
    expect(any.status).toBe(201);
    expect((await entryOf(date, (await any.json<{ insertedId: string }>()).insertedId))?.doctor?._id).toBe(
      'dr-sofia-alvarez',
    );
  });

  it('asks for online payment with a deadline it sees, after which the time is released', async () => {
    const date = clinicDay(22);
    const caller = await newPatient('online');
    const response = await phoneBook({
      patientId: caller.id,
      phone: '555 0182',
      treatment: CLEANING,
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
      payment: 'online',
    });
    expect(response.status).toBe(201);
    const { insertedId, payBy } = await response.json<{ insertedId: string; payBy: string }>();
    expect(Date.parse(payBy)).toBeGreaterThan(Date.now());
    expect(await entryOf(date, insertedId)).toMatchObject({ payment: 'online', payBy });
    const mine = await (await call('/api/bookings', { headers: caller.auth })).json<
      { _id: string; payBy: string; payAtClinic: boolean }[]
    >();
    expect(mine).toEqual([expect.objectContaining({ _id: insertedId, payBy, payAtClinic: false })]);

    await runCron(Date.parse(payBy) + 60_000, MAIL);
    expect(await entryOf(date, insertedId)).toMatchObject({ status: 'cancelled', cancelReason: 'unpaid' });
  });

  it('books past the unpaid limit only with a reason, which goes in the audit trail', async () => {
    const LIMIT = { MAX_UNPAID_BOOKINGS: '1' };
    const date = clinicDay(23);
    const caller = await newPatient('limit');
    const own = await bookAs(
      caller.auth,
      { treatment: CLEANING, appointmentDate: date, slot: '09.00 AM - 09.30 AM' },
      LIMIT,
    );
    expect(own.status).toBe(201);
    const body = {
      patientId: caller.id,
      phone: '555 0183',
      treatment: 'Dental Check-up',
      appointmentDate: date,
      slot: '10.00 AM - 10.30 AM',
      payment: 'online',
    };
    const refused = await phoneBook(body, LIMIT);
    expect(refused.status).toBe(409);
    expect((await refused.json<{ message: string }>()).message).toContain('unpaid');
    // Paid at the clinic, it holds nothing: the limit does not apply.
    expect(
      (
        await phoneBook(
          { ...body, payment: 'clinic', slot: '11.00 AM - 11.30 AM', treatment: 'Fluoride Treatment' },
          LIMIT,
        )
      ).status,
    ).toBe(201);
    const past = await phoneBook({ ...body, limitReason: 'Regular patient, pays on the day' }, LIMIT);
    expect(past.status).toBe(201);
    const { insertedId } = await past.json<{ insertedId: string }>();
    const [row] = await auditOf('booking.booked_by_phone', insertedId);
    expect(row?.after).toMatchObject({ payment: 'online', pastTheUnpaidLimit: 'Regular patient, pays on the day' });
  });
});

describe('a payment taken at the desk', () => {
  it('mails the receipt to a patient with an address, and is given back at the desk when the clinic cancels', async () => {
    const date = clinicDay(24);
    const patient = await newPatient('desk-paid');
    const response = await phoneBook({
      patientId: patient.id,
      phone: '555 0184',
      treatment: CLEANING,
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
    });
    const { insertedId } = await response.json<{ insertedId: string }>();
    const paid = await call(
      `/api/bookings/${insertedId}/desk-payment`,
      { method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' }, body: '{"method":"card"}' },
      MAIL,
    );
    expect(await paid.json()).toMatchObject({
      message: `$80.00 paid by card at the desk; the receipt is on its way to ${patient.email}`,
    });
    await runCron(Date.now(), MAIL);
    expect(box.to(patient.email).map((m) => m.subject)).toContainEqual(expect.stringMatching(/receipt/i));
    // The desk's payment is not one the patient can pay again online.
    expect((await postJson('/api/create-payment-intent', { bookingId: insertedId }, patient.auth)).status).toBe(409);

    const cancelled = await postJson(`/api/bookings/${insertedId}/cancel`, { reason: 'The doctor is ill' }, admin);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ refund: { status: 'due', amount: 80 } });
    const refunds = await (await call('/api/refunds', { headers: admin })).json<
      { _id: string; bookingId: string; refundStatus: string; provider: string }[]
    >();
    const due = refunds.find((r) => r.bookingId === insertedId);
    expect(due).toMatchObject({ refundStatus: 'due', provider: 'desk' });

    // The desk hands the $80 back; two staff (ten clicks) mark it at once: it moves once, one notice.
    const handedBack = () =>
      call(`/api/refunds/${due?._id}/handed-back`, { method: 'POST', headers: admin }, MAIL).then(async (r) => ({
        status: r.status,
        body: await r.json<{ message: string; refund: { refundStatus: string } }>(),
      }));
    const answers = await Promise.all(Array.from({ length: 10 }, handedBack));
    expect(new Set(answers.map((a) => `${a.status} ${a.body.message} ${a.body.refund.refundStatus}`))).toEqual(
      new Set(['200 Handed back $80.00 to Patient desk-paid succeeded']),
    );
    await runCron(Date.now(), MAIL);
    const notices = box.to(patient.email).filter((m) => m.subject.startsWith('Refunded:'));
    expect(notices.map((m) => m.subject)).toEqual(['Refunded: $80.00 for Teeth Cleaning']);
    expect(notices[0]?.text).toContain(
      "We handed back $80.00 for your Teeth Cleaning appointment at the clinic's desk.",
    );
    expect(notices[0]?.text).not.toContain('business days');
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'payment.refunded' AND target_id = ?1")
        .bind(
          (
            await env.DB.prepare('SELECT transaction_id AS t FROM payments WHERE id = ?1')
              .bind(due?._id)
              .first<{ t: string }>()
          )?.t,
        )
        .first('n'),
    ).toBe(1);
  });

  it('is marked handed back only by an admin, only for a desk payment that is due', async () => {
    const patient = await newPatient('handback-rules');
    const unknown = await call('/api/refunds/no-such-payment/handed-back', { method: 'POST', headers: admin });
    expect([unknown.status, (await unknown.json<{ message: string }>()).message]).toEqual([
      404,
      'No refund is due for this payment',
    ]);
    expect((await call('/api/refunds/anything/handed-back', { method: 'POST', headers: patient.auth })).status).toBe(
      403,
    );
    // A card payment online goes back through the provider, never "at the desk".
    await env.DB.prepare(
      `INSERT INTO payments (id, transaction_id, email, amount_cents, provider, refund_status, refund_reason)
       VALUES ('pay-online-due', 'pi_online_due', ?1, 8000, 'demo', 'due', 'already_paid')`,
    )
      .bind(patient.email)
      .run();
    const online = await call('/api/refunds/pay-online-due/handed-back', { method: 'POST', headers: admin });
    expect(online.status).toBe(409);
    expect(
      await env.DB.prepare("SELECT refund_status FROM payments WHERE id = 'pay-online-due'").first('refund_status'),
    ).toBe('due');
  });
});
