import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  payWithDemo,
  runCron,
  seed,
} from './helpers.ts';

// A closure over booked visits tells each patient, whichever the desk chooses; the bookings kept
// wait on a review list until the desk moves, cancels or keeps them (issue 25). A patient's past
// and cancelled visits stay in their history with refund and receipt.

let admin: Record<string, string>;
const box = mailbox();
const MAIL = { MAILER: box.mailer };

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const send = (method: string, path: string, body?: unknown, headers = admin) =>
  call(
    path,
    {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    MAIL,
  );

type Patient = Awaited<ReturnType<typeof newPatient>>;

async function booked(patient: Patient, treatment: string, date: string, slot: string): Promise<string> {
  const response = await bookAs(patient.auth, { treatment, appointmentDate: date, slot }, MAIL);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

async function reviewList(): Promise<{ _id: string; date: string; patientName: string; needsReview: boolean }[]> {
  const response = await call('/api/schedule/review', { headers: admin });
  expect(response.status).toBe(200);
  return response.json();
}

/** The subjects of the mail sent to `email` once the cron has delivered the outbox. */
async function subjectsTo(email: string): Promise<string[]> {
  await runCron(Date.now(), MAIL);
  return box.to(email).map((mail) => String(mail.subject));
}

describe('a closure over booked visits', () => {
  it('"keep them for review": each patient is told the clinic will call; they wait on the review list until kept', async () => {
    const date = clinicDay(30);
    const [ann, ben] = [await newPatient('ann'), await newPatient('ben')];
    const annId = await booked(ann, 'Teeth Cleaning', date, '10.00 AM - 10.30 AM');
    const benId = await booked(ben, 'Teeth Whitening', date, '11.00 AM - 12.00 PM');
    const refused = await send('POST', '/api/closures', { from: date, to: date, reason: 'Burst pipe' });
    expect(refused.status).toBe(409);

    const kept = await send('POST', '/api/closures', { from: date, to: date, reason: 'Burst pipe', bookings: 'keep' });
    expect(kept.status).toBe(201);
    expect(await kept.json()).toMatchObject({
      cancelled: [],
      stranded: [expect.objectContaining({ _id: annId }), expect.objectContaining({ _id: benId })],
    });
    expect((await reviewList()).map((entry) => [entry._id, entry.date])).toEqual([
      [annId, date],
      [benId, date],
    ]);
    expect(await subjectsTo(ann.email)).toContainEqual(expect.stringContaining('the clinic will call you'));

    // Kept as it is: off the list, with its audit row; a second keep, or a booking not waiting, is a 409.
    const keep = await send('POST', `/api/bookings/${annId}/keep`);
    expect(keep.status).toBe(200);
    expect((await reviewList()).map((entry) => entry._id)).toEqual([benId]);
    expect((await send('POST', `/api/bookings/${annId}/keep`)).status).toBe(409);
    const audit = await (await call('/api/audit?type=booking.kept', { headers: admin })).json<{
      entries: { target: { id: string } }[];
    }>();
    expect(audit.entries.map((entry) => entry.target.id)).toEqual([annId]);
    expect((await send('POST', '/api/bookings/no-such/keep')).status).toBe(404);
    expect((await send('POST', `/api/bookings/${benId}/keep`, undefined, ben.auth)).status).toBe(403);

    // Moved by the desk, it leaves the list too.
    const moved = await send('POST', `/api/bookings/${benId}/reschedule`, {
      appointmentDate: clinicDay(31),
      slot: '11.00 AM - 12.00 PM',
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await reviewList()).toEqual([]);
  });

  it('"cancel them and tell the patients": each is cancelled, a paid one refunded, its patient mailed the reason', async () => {
    const date = clinicDay(32);
    const [cy, di] = [await newPatient('cy'), await newPatient('di')];
    const paidId = await booked(cy, 'Teeth Cleaning', date, '09.00 AM - 09.30 AM');
    await payWithDemo(paidId, cy.auth);
    const unpaidId = await booked(di, 'Dental Check-up', date, '10.00 AM - 10.30 AM');

    const closed = await send('POST', '/api/closures', {
      from: date,
      to: date,
      reason: 'Staff training',
      bookings: 'cancel',
    });
    expect(closed.status, await closed.clone().text()).toBe(201);
    const answer = await closed.json<{ cancelled: { _id: string }[]; stranded: unknown[] }>();
    expect(answer.cancelled.map((b) => b._id).sort()).toEqual([paidId, unpaidId].sort());
    expect(answer.stranded).toEqual([]);
    expect(await reviewList()).toEqual([]);

    const history = await (await call('/api/bookings/history', { headers: cy.auth })).json<{
      bookings: { _id: string; status: string; cancelReason: string; cancelNote: string; refund: unknown }[];
    }>();
    expect(history.bookings.find((b) => b._id === paidId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'admin',
      cancelNote: 'The clinic is closed that day (Staff training)',
      refund: { status: 'succeeded', amount: 80, currency: 'usd' },
    });
    expect(await subjectsTo(di.email)).toContainEqual(expect.stringMatching(/cancelled/i));
    const mail = box.to(di.email).find((m) => /cancelled/i.test(String(m.subject)));
    expect(String(mail?.text)).toContain('Staff training');
    const refunds = await (await call('/api/refunds', { headers: admin })).json<{ bookingId: string }[]>();
    expect(refunds.map((r) => r.bookingId)).toContain(paidId);
  });

  it('refuses a choice it does not know (400), changing nothing', async () => {
    const response = await send('POST', '/api/closures', {
      from: clinicDay(33),
      to: clinicDay(33),
      reason: 'x',
      bookings: 'drop',
    });
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toBe('bookings must be "keep" or "cancel"');
  });
});

describe('a patient’s history', () => {
  it('lists past and cancelled visits newest first, each with its status, refund and receipt, a page at a time', async () => {
    const patient = await newPatient('history');
    const [cancelledPaid, upcoming] = [
      await booked(patient, 'Teeth Cleaning', clinicDay(40), '09.00 AM - 09.30 AM'),
      await booked(patient, 'Teeth Cleaning', clinicDay(41), '09.00 AM - 09.30 AM'),
    ];
    await payWithDemo(cancelledPaid, patient.auth);
    expect((await send('DELETE', `/api/bookings/${cancelledPaid}`, undefined, patient.auth)).status).toBe(200);
    // A past visit the clinic marked attended, and one released unpaid.
    const attended = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes,
         user_id, patient_name, email, price_cents, paid, status)
       VALUES (?1, 'dental-checkup', 'Dental Check-up', ?2, '09.00 AM - 09.30 AM', 540, 30, ?3, 'Patient history', ?4, 4500, 0, 'attended')`,
    )
      .bind(attended, clinicDay(-3), patient.id, patient.email)
      .run();
    const released = await booked(patient, 'Dental Check-up', clinicDay(42), '09.00 AM - 09.30 AM');
    await env.DB.prepare("UPDATE bookings SET hold_until = '2000-01-01T00:00:00.000Z' WHERE id = ?1")
      .bind(released)
      .run();

    const first = await call('/api/bookings/history', { headers: patient.auth });
    expect(first.status).toBe(200);
    const { bookings, nextPage } = await first.json<{
      bookings: { _id: string; status: string; cancelReason: string | null; refund: unknown; hasReceipt: boolean }[];
      nextPage: number | null;
    }>();
    expect(nextPage).toBeNull();
    expect(bookings.map((b) => [b._id, b.status, b.cancelReason, b.hasReceipt])).toEqual([
      [released, 'cancelled', 'unpaid', false],
      [cancelledPaid, 'cancelled', 'patient', true],
      [attended, 'attended', null, false],
    ]);
    expect(bookings[1]?.refund).toEqual({ status: 'succeeded', amount: 80, currency: 'usd' });
    expect(bookings.map((b) => b._id)).not.toContain(upcoming);
    // The receipt of the cancelled, refunded booking is still there.
    const receipt = await call(`/api/bookings/${cancelledPaid}/receipt`, { headers: patient.auth });
    expect(receipt.status).toBe(200);
    expect(await receipt.json()).toMatchObject({ refund: { status: 'succeeded' } });

    // 25 cancelled visits: two pages.
    for (let n = 0; n < 22; n += 1) {
      const id = await booked(patient, 'Fluoride Treatment', clinicDay(34 + n), '11.00 AM - 11.30 AM');
      expect((await send('DELETE', `/api/bookings/${id}`, undefined, patient.auth)).status).toBe(200);
    }
    const page1 = await (await call('/api/bookings/history', { headers: patient.auth })).json<{
      bookings: unknown[];
      nextPage: number | null;
    }>();
    expect([page1.bookings.length, page1.nextPage]).toEqual([20, 2]);
    const page2 = await (await call('/api/bookings/history?page=2', { headers: patient.auth })).json<{
      bookings: unknown[];
      nextPage: number | null;
    }>();
    expect([page2.bookings.length, page2.nextPage]).toEqual([5, null]);
    for (const bad of ['0', 'x', '-1', '1.5', '99999'])
      expect((await call(`/api/bookings/history?page=${bad}`, { headers: patient.auth })).status).toBe(400);
    expect((await call('/api/bookings/history')).status).toBe(401);
    // Another patient's history is their own: none of these.
    const other = await newPatient();
    expect(await (await call('/api/bookings/history', { headers: other.auth })).json()).toEqual({
      bookings: [],
      nextPage: null,
    });
  });

  it('says until when each booking can be cancelled free and moved online, under the clinic’s policy', async () => {
    expect(
      (await send('PUT', '/api/clinic/policy', { freeCancellationHours: 48, rescheduleCutoffHours: 6 })).status,
    ).toBe(200);
    const patient = await newPatient('policy');
    const id = await booked(patient, 'Teeth Cleaning', clinicDay(20), '09.00 AM - 09.30 AM');
    const [listed] = await (await call('/api/bookings', { headers: patient.auth })).json<
      { _id: string; startsAt: string; freeCancellationUntil: string; rescheduleUntil: string }[]
    >();
    expect(listed?._id).toBe(id);
    const start = Date.parse(listed?.startsAt ?? '');
    expect(Date.parse(listed?.freeCancellationUntil ?? '')).toBe(start - 48 * 3_600_000);
    expect(Date.parse(listed?.rescheduleUntil ?? '')).toBe(start - 6 * 3_600_000);
  });
});
