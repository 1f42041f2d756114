import { env } from 'cloudflare:test';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { slotLabel } from '../../contract/slot-label.ts';
import {
  accessTokenFor,
  addPastVisit,
  addUser,
  bearer,
  bookAs,
  call,
  clinicDay,
  emulatorIdToken,
  mailbox,
  newPatient,
  payWithDemo,
  postJson,
  runCron,
  seed,
  slotsOf,
} from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const ORTHO = 'Orthodontic Consultation'; // 60 minutes, one orthodontist (Dr. Hiro Tanaka)
const CLEANING = 'Teeth Cleaning'; // 30 minutes, $80, General Dentistry
const ROOT_CANAL = 'Root Canal Treatment'; // 90 minutes, one endodontist

type Patient = Awaited<ReturnType<typeof newPatient>>;

/** Books as `patient` (201 expected); answers the booking's id. */
async function booked(patient: Patient, treatment: string, date: string, slot: string): Promise<string> {
  const response = await bookAs(patient.auth, { treatment, appointmentDate: date, slot });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const reschedule = (id: string, auth: Record<string, string>, body: unknown) =>
  postJson(`/api/bookings/${id}/reschedule`, body, auth);

interface Row {
  id: string;
  status: string;
  moved_to: string | null;
  appointment_date: string;
  start_minute: number;
  doctor_id: string | null;
  chair_id: string | null;
  paid: number;
  payment_intent_id: string | null;
  hold_until: string | null;
  price_cents: number;
  user_id: string;
  cancel_reason: string | null;
  cancel_note: string | null;
}

async function row(id: string): Promise<Row> {
  const found = await env.DB.prepare('SELECT * FROM bookings WHERE id = ?1').bind(id).first<Row>();
  if (!found) throw new Error(`no booking ${id}`);
  return found;
}

async function claimCount(id: string): Promise<number> {
  return (
    (await env.DB.prepare('SELECT count(*) AS n FROM claims WHERE booking_id = ?1').bind(id).first<number>('n')) ?? 0
  );
}

/** What My Appointments lists for a patient. */
async function listOf(patient: Patient): Promise<Record<string, unknown>[]> {
  const response = await call('/api/bookings', { headers: patient.auth });
  expect(response.status).toBe(200);
  return response.json();
}

const putPolicy = (body: unknown, auth = admin) =>
  call('/api/clinic/policy', {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function setCutoff(hours: number) {
  expect((await putPolicy({ rescheduleCutoffHours: hours })).status).toBe(200);
}

describe('GET /api/schedule', () => {
  it("answers the day's bookings with patient, treatment, time, doctor, chair, payment, status and no-shows", async () => {
    const date = clinicDay(10);
    const patient = await newPatient('schedule');
    const id = await booked(patient, ORTHO, date, '10.00 AM - 11.00 AM');
    const response = await call(`/api/schedule?date=${date}`, { headers: admin });
    expect(response.status).toBe(200);
    const day = await response.json<{
      date: string;
      hours: unknown;
      doctors: { _id: string; name: string }[];
      chairs: unknown[];
      bookings: Record<string, unknown>[];
    }>();
    expect(day.date).toBe(date);
    expect(day.hours).toEqual({ open: '09:00', close: '17:00' });
    expect(day.doctors.map((d) => d.name)).toContain('Dr. Hiro Tanaka');
    expect(day.chairs).toEqual([
      { _id: 'chair-1', name: 'Chair 1' },
      { _id: 'chair-2', name: 'Chair 2' },
    ]);
    expect(day.bookings).toEqual([
      expect.objectContaining({
        _id: id,
        patientName: 'Patient schedule',
        email: patient.email,
        phone: '555 0100',
        treatment: ORTHO,
        start: '10:00',
        startMinute: 600,
        durationMinutes: 60,
        slot: '10.00 AM - 11.00 AM',
        doctor: { _id: 'dr-hiro-tanaka', name: 'Dr. Hiro Tanaka' },
        chair: { _id: expect.stringMatching(/^chair-/), name: expect.stringMatching(/^Chair /) },
        paid: false,
        status: 'active',
        cancelReason: null,
        needsReview: false,
        noShows: 0,
      }),
    ]);
  });

  it('counts the appointments of each day of a range, every day listed, cancelled ones left out', async () => {
    const [a, b] = [await newPatient(), await newPatient()];
    const first = clinicDay(11);
    await booked(a, CLEANING, first, '09.00 AM - 09.30 AM');
    await booked(b, CLEANING, first, '09.30 AM - 10.00 AM');
    const gone = await booked(a, CLEANING, clinicDay(12), '09.00 AM - 09.30 AM');
    expect((await call(`/api/bookings/${gone}`, { method: 'DELETE', headers: a.auth })).status).toBe(200);
    const response = await call(`/api/schedule?from=${first}&to=${clinicDay(13)}`, { headers: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { date: first, count: 2, closed: null },
      { date: clinicDay(12), count: 0, closed: null },
      { date: clinicDay(13), count: 0, closed: null },
    ]);
  });

  it('is for admins only, and refuses a malformed or too long range with a plain 400', async () => {
    const { auth } = await newPatient();
    expect((await call(`/api/schedule?date=${clinicDay(1)}`, { headers: auth })).status).toBe(403);
    expect((await call(`/api/schedule?date=${clinicDay(1)}`)).status).toBe(401);
    for (const [query, message] of [
      ['', 'Ask for one day'],
      ['date=2026-02-31', 'date must be a date'],
      [`date=${clinicDay(1)}&from=${clinicDay(1)}&to=${clinicDay(2)}`, 'Ask for one day'],
      [`from=${clinicDay(1)}`, 'A range needs both from and to'],
      [`from=${clinicDay(5)}&to=${clinicDay(1)}`, 'to must be the same day as from or later'],
      [`from=${clinicDay(0)}&to=${clinicDay(92)}`, 'at most 92 days'],
    ]) {
      const response = await call(`/api/schedule?${query}`, { headers: admin });
      expect(response.status, query).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    expect((await call(`/api/schedule?from=${clinicDay(0)}&to=${clinicDay(91)}`, { headers: admin })).status).toBe(200);
  });
});

describe('GET /api/schedule.csv', () => {
  it('exports a range a spreadsheet reads back cell for cell, formulas defused', async () => {
    const date = clinicDay(14);
    const names = ['=HYPERLINK("http://evil.test","x")', 'O"Brien, Jr', '@SUM(A1)', '-2+3'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      const email = `csv-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`;
      await addUser(email, name);
      const auth = bearer(await accessTokenFor(email));
      const response = await call('/api/bookings', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          treatment: CLEANING,
          appointmentDate: date,
          slot: slotLabel(9 * 60 + 30 * i, 30),
          phone: i === 0 ? '+1 555 0100' : '555 0100',
        }),
      });
      expect(response.status).toBe(201);
      ids.push((await response.json<{ insertedId: string }>()).insertedId);
    }
    const response = await call(`/api/schedule.csv?from=${date}&to=${date}`, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="schedule-${date}-to-${date}.csv"`);
    const text = await response.text();
    expect(text.split('\r\n')[0]).toBe(
      '"Date","Start","End","Minutes","Patient","Email","Phone","Treatment","Doctor","Chair","Price","Paid","Refund","Status","Cancellation note","No-shows","Needs review"',
    );
    const [header, ...rows] = parse(text) as string[][];
    expect(header?.[4]).toBe('Patient');
    expect(rows.map((r) => r[4])).toEqual([
      '\'=HYPERLINK("http://evil.test","x")',
      'O"Brien, Jr',
      "'@SUM(A1)",
      "'-2+3",
    ]);
    expect(rows[0]).toEqual([
      date,
      '09:00',
      '09:30',
      '30',
      '\'=HYPERLINK("http://evil.test","x")',
      expect.stringMatching(/^csv-0-/),
      "'+1 555 0100",
      CLEANING,
      'Dr. Sofia Alvarez',
      expect.stringMatching(/^Chair /),
      '80.00',
      'no',
      '',
      'Booked',
      '',
      '0',
      'no',
    ]);
  });

  it('says what was refunded of a cancelled, paid booking', async () => {
    const date = clinicDay(15);
    const patient = await newPatient('csv-refund');
    const id = await booked(patient, CLEANING, date, '09.00 AM - 09.30 AM');
    await payWithDemo(id, patient.auth);
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: patient.auth })).status).toBe(200);
    const text = await (await call(`/api/schedule.csv?from=${date}&to=${date}`, { headers: admin })).text();
    const [header, ...rows] = parse(text) as string[][];
    const row = rows.find((r) => r[4] === 'Patient csv-refund');
    expect([row?.[header?.indexOf('Refund') ?? -1], row?.[header?.indexOf('Status') ?? -1]]).toEqual([
      '80.00 refunded',
      'Cancelled',
    ]);
  });

  it('needs a range (400) and an admin (403)', async () => {
    expect((await call(`/api/schedule.csv?from=${clinicDay(1)}`, { headers: admin })).status).toBe(400);
    const { auth } = await newPatient();
    expect((await call(`/api/schedule.csv?from=${clinicDay(1)}&to=${clinicDay(2)}`, { headers: auth })).status).toBe(
      403,
    );
  });
});

describe('the reschedule cutoff, one of the clinic’s booking-change rules (GET/PUT /api/clinic/policy)', () => {
  const policy = async () => (await call('/api/clinic/policy')).json();

  it('is read by anyone beside the cancellation window (24 hours each by default) and changed by an admin alone', async () => {
    // With how long an unpaid booking holds its time (wrangler.toml's defaults).
    expect(await policy()).toEqual({
      freeCancellationHours: 24,
      rescheduleCutoffHours: 24,
      noShowFee: 0,
      lateCancelFee: 0,
      unpaidHoldHours: 24,
      unpaidHoldHoursBeforeStart: 12,
    });
    const { auth } = await newPatient();
    expect((await putPolicy({ rescheduleCutoffHours: 2 }, auth)).status).toBe(403);
    for (const [bad, message] of [
      [-1, 'rescheduleCutoffHours cannot be negative'],
      [721, 'rescheduleCutoffHours must be at most 720 (30 days)'],
      [1.5, 'rescheduleCutoffHours must be a whole number of hours'],
      ['2', 'rescheduleCutoffHours must be a number of hours'],
    ] as const) {
      const response = await putPolicy({ rescheduleCutoffHours: bad });
      expect(response.status, String(bad)).toBe(400);
      expect(await response.json()).toEqual({ acknowledged: false, message });
    }
    const empty = await putPolicy({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      acknowledged: false,
      message: 'Send freeCancellationHours, rescheduleCutoffHours, noShowFee or lateCancelFee',
    });
    expect(await policy()).toMatchObject({ freeCancellationHours: 24, rescheduleCutoffHours: 24 });

    // Each rule changes alone; the other stays.
    const saved = await putPolicy({ rescheduleCutoffHours: 2 });
    expect(await saved.json()).toEqual({
      acknowledged: true,
      message: 'Cancellation policy saved',
      freeCancellationHours: 24,
      rescheduleCutoffHours: 2,
      noShowFee: 0,
      lateCancelFee: 0,
    });
    expect((await putPolicy({ freeCancellationHours: 48 })).status).toBe(200);
    expect(await policy()).toMatchObject({ freeCancellationHours: 48, rescheduleCutoffHours: 2 });
    expect((await putPolicy({ freeCancellationHours: 24, rescheduleCutoffHours: 24 })).status).toBe(200);
  });
});

describe('POST /api/bookings/:id/reschedule', () => {
  it('moves a booking in one batch: a new booking with new claims, the old one marked moved with its claims freed', async () => {
    const patient = await newPatient('mover');
    const date = clinicDay(15);
    const old = await booked(patient, ORTHO, date, '09.00 AM - 10.00 AM');
    const response = await reschedule(old, patient.auth, {
      appointmentDate: clinicDay(16),
      slot: '02.00 PM - 03.00 PM',
    });
    expect(response.status).toBe(200);
    const { insertedId, message } = await response.json<{ insertedId: string; message: string }>();
    expect(message).toContain('02.00 PM - 03.00 PM');
    expect(await row(old)).toMatchObject({ status: 'moved', moved_to: insertedId });
    expect(await claimCount(old)).toBe(0);
    expect(await row(insertedId)).toMatchObject({
      status: 'active',
      appointment_date: clinicDay(16),
      start_minute: 14 * 60,
      doctor_id: 'dr-hiro-tanaka',
      user_id: patient.id,
    });
    expect(await claimCount(insertedId)).toBe(12); // 4 cells of the doctor, the chair and the patient
    expect((await listOf(patient)).map((b) => b._id)).toEqual([insertedId]);
    expect(await slotsOf(date, 'orthodontic-consultation')).toContain('09.00 AM - 10.00 AM');
    expect(await slotsOf(clinicDay(16), 'orthodontic-consultation')).not.toContain('02.00 PM - 03.00 PM');
    // The old booking is gone for its owner: it cannot be moved or cancelled again.
    expect(
      (await reschedule(old, patient.auth, { appointmentDate: clinicDay(17), slot: '09.00 AM - 10.00 AM' })).status,
    ).toBe(404);
  });

  it('moves within time that overlaps its own: its own claims do not block it', async () => {
    const patient = await newPatient();
    const date = clinicDay(18);
    const old = await booked(patient, ROOT_CANAL, date, '09.00 AM - 10.30 AM');
    const response = await reschedule(old, patient.auth, { appointmentDate: date, slot: '09.30 AM - 11.00 AM' });
    expect(response.status).toBe(200);
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect(await row(insertedId)).toMatchObject({ start_minute: 570, status: 'active' });
    expect(await claimCount(insertedId)).toBe(18);
  });

  it('follows the rules of a new booking: taken time 409, closed day, unknown slot, same time 400; the booking stays', async () => {
    const [a, b] = [await newPatient(), await newPatient()];
    const date = clinicDay(19);
    const mine = await booked(a, ORTHO, date, '09.00 AM - 10.00 AM');
    await booked(b, ORTHO, date, '11.00 AM - 12.00 PM');
    const taken = await reschedule(mine, a.auth, { appointmentDate: date, slot: '11.00 AM - 12.00 PM' });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({
      acknowledged: false,
      message: 'This slot was just booked; please choose another one',
    });
    const closure = await postJson(
      '/api/closures',
      { from: clinicDay(20), to: clinicDay(20), reason: 'Training' },
      admin,
    );
    expect(closure.status).toBe(201);
    for (const [body, message] of [
      [{ appointmentDate: clinicDay(20), slot: '09.00 AM - 10.00 AM' }, 'The clinic is closed'],
      [{ appointmentDate: date, slot: '09.00 AM - 09.30 AM' }, 'has no slot'],
      [{ appointmentDate: date, slot: '09.00 AM - 10.00 AM' }, 'already has'],
      [{ appointmentDate: clinicDay(-1), slot: '09.00 AM - 10.00 AM' }, 'This date has passed'],
      [{ appointmentDate: clinicDay(400), slot: '09.00 AM - 10.00 AM' }, 'days ahead'],
      [{ slot: '09.00 AM - 10.00 AM' }, 'appointmentDate is required'],
    ] as const) {
      const response = await reschedule(mine, a.auth, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    expect(await row(mine)).toMatchObject({ status: 'active', moved_to: null, start_minute: 540 });
    expect(await claimCount(mine)).toBe(12);
  });

  it('lets the owner move until the cutoff, an admin at any time, and nobody else', async () => {
    const [owner, other] = [await newPatient('owner'), await newPatient('other')];
    const date = clinicDay(3);
    const id = await booked(owner, CLEANING, date, '09.00 AM - 09.30 AM');
    const to = { appointmentDate: clinicDay(21), slot: '03.00 PM - 03.30 PM' };
    const refused = await reschedule(id, other.auth, to);
    expect(refused.status).toBe(403);
    await setCutoff(96); // the appointment is about 3 days away: inside the cutoff
    const late = await reschedule(id, owner.auth, to);
    expect(late.status).toBe(409);
    expect((await late.json<{ message: string }>()).message).toBe(
      'Appointments can be rescheduled online until 96 hours before they start; please call the clinic',
    );
    expect(await row(id)).toMatchObject({ status: 'active' });
    const byAdmin = await reschedule(id, admin, to);
    expect(byAdmin.status).toBe(200);
    const { insertedId } = await byAdmin.json<{ insertedId: string }>();
    expect(await row(insertedId)).toMatchObject({ user_id: owner.id, appointment_date: clinicDay(21) });
    await setCutoff(24);
    const again = await reschedule(insertedId, owner.auth, { appointmentDate: clinicDay(22), slot: to.slot });
    expect(again.status).toBe(200);
  });

  it('carries the payment over: the new booking is paid with the same payment, the old one keeps nothing', async () => {
    const patient = await newPatient('payer');
    const id = await booked(patient, CLEANING, clinicDay(23), '10.00 AM - 10.30 AM');
    const intent = await postJson('/api/create-payment-intent', { bookingId: id }, patient.auth);
    const { clientSecret } = await intent.json<{ clientSecret: string }>();
    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
    expect((await postJson('/api/demo-payments/confirm', { clientSecret, card }, patient.auth)).status).toBe(200);
    const paid = await row(id);
    expect(paid).toMatchObject({ paid: 1, payment_intent_id: expect.stringMatching(/^pi_demo_/) });

    const response = await reschedule(id, patient.auth, {
      appointmentDate: clinicDay(24),
      slot: '11.00 AM - 11.30 AM',
    });
    expect(response.status).toBe(200);
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect(await row(insertedId)).toMatchObject({
      paid: 1,
      payment_intent_id: paid.payment_intent_id,
      price_cents: 8000,
      hold_until: null,
    });
    expect(await row(id)).toMatchObject({ status: 'moved', payment_intent_id: null });
    const payments = await env.DB.prepare('SELECT booking_id, refund_status FROM payments WHERE transaction_id = ?1')
      .bind(paid.payment_intent_id)
      .all();
    expect(payments.results).toEqual([{ booking_id: insertedId, refund_status: null }]);
    const listed = await listOf(patient);
    expect(listed).toEqual([expect.objectContaining({ _id: insertedId, paid: true, payBy: null })]);
    // Paid and moved, it is still paid: nothing to pay again.
    expect((await postJson('/api/create-payment-intent', { bookingId: insertedId }, patient.auth)).status).toBe(409);
  });

  it('never gives an unpaid booking more time to pay', async () => {
    const patient = await newPatient();
    const id = await booked(patient, CLEANING, clinicDay(25), '10.00 AM - 10.30 AM');
    const before = await row(id);
    const response = await reschedule(id, patient.auth, {
      appointmentDate: clinicDay(30),
      slot: '10.00 AM - 10.30 AM',
    });
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect(await row(insertedId)).toMatchObject({ paid: 0, hold_until: before.hold_until });
  });
});

describe('rescheduling into one free time at once', () => {
  it('lets exactly one of several patients in; the others get 409 and keep their bookings', async () => {
    for (const round of [0, 1, 2]) {
      const date = clinicDay(31 + round);
      const patients = await Promise.all([0, 1, 2, 3].map(() => newPatient('racer')));
      const ids = await Promise.all(patients.map((p, i) => booked(p, ORTHO, date, slotLabel(9 * 60 + 60 * i, 60))));
      // Every one of them wants the orthodontist's 15.00, which only one can have.
      const responses = await Promise.all(
        patients.map((p, i) =>
          reschedule(ids[i] ?? '', p.auth, { appointmentDate: date, slot: '03.00 PM - 04.00 PM' }),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 409, 409, 409]);
      const rows = await Promise.all(ids.map(row));
      expect(rows.filter((r) => r.status === 'moved')).toHaveLength(1);
      for (const [i, r] of rows.entries()) {
        if (r.status === 'moved') continue;
        expect(r).toMatchObject({ status: 'active', start_minute: 9 * 60 + 60 * i });
        expect(await claimCount(r.id)).toBe(12);
      }
      const overlaps = await env.DB.prepare(
        'SELECT resource, cell, count(*) AS n FROM claims WHERE day = ?1 GROUP BY resource, cell HAVING n > 1',
      )
        .bind(date)
        .all();
      expect(overlaps.results).toEqual([]);
      const active = await env.DB.prepare(
        "SELECT count(*) AS n FROM bookings WHERE appointment_date = ?1 AND status = 'active' AND start_minute = 900",
      )
        .bind(date)
        .first<number>('n');
      expect(active).toBe(1);
    }
  });
});

describe('POST /api/bookings/:id/attendance', () => {
  it('marks a started appointment attended or missed; the no-shows show on the schedule and in My Appointments', async () => {
    const patient = await newPatient('visitor');
    const past = await addPastVisit(patient.email, 2);
    const mark = (status: string, auth = admin) => postJson(`/api/bookings/${past}/attendance`, { status }, auth);
    expect((await mark('no_show', patient.auth)).status).toBe(403);
    const response = await mark('no_show');
    expect(response.status).toBe(200);
    expect((await response.json<{ message: string }>()).message).toBe('Patient visitor marked as a no-show');
    expect(await row(past)).toMatchObject({ status: 'no_show' });
    const day = await (await call(`/api/schedule?date=${clinicDay(-2)}`, { headers: admin })).json<{
      bookings: Record<string, unknown>[];
    }>();
    expect(day.bookings.find((b) => b._id === past)).toMatchObject({ status: 'no_show', noShows: 1 });
    expect(await listOf(patient)).toEqual([expect.objectContaining({ _id: past, status: 'no_show' })]);
    // A correction: they did come.
    expect((await mark('attended')).status).toBe(200);
    expect(await row(past)).toMatchObject({ status: 'attended' });
    expect((await mark('late')).status).toBe(400);
  });

  it('refuses an appointment that has not started, and a cancelled or unknown one', async () => {
    const patient = await newPatient();
    const id = await booked(patient, CLEANING, clinicDay(1), '09.00 AM - 09.30 AM');
    const early = await postJson(`/api/bookings/${id}/attendance`, { status: 'attended' }, admin);
    expect(early.status).toBe(409);
    expect((await early.json<{ message: string }>()).message).toBe(
      'Attendance can be marked once the appointment has started',
    );
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: patient.auth })).status).toBe(200);
    expect((await postJson(`/api/bookings/${id}/attendance`, { status: 'attended' }, admin)).status).toBe(409);
    expect((await postJson('/api/bookings/no-such-id/attendance', { status: 'attended' }, admin)).status).toBe(404);
    expect(await row(id)).toMatchObject({ status: 'cancelled' });
  });
});

describe('POST /api/bookings/:id/cancel (the clinic cancels for the patient)', () => {
  it('cancels with a reason the patient sees in My Appointments, and frees the time', async () => {
    const patient = await newPatient('cancelled');
    const date = clinicDay(35);
    const id = await booked(patient, ORTHO, date, '09.00 AM - 10.00 AM');
    const reason = 'Dr. Tanaka is ill; please book another day';
    expect((await postJson(`/api/bookings/${id}/cancel`, { reason }, patient.auth)).status).toBe(403);
    expect((await postJson(`/api/bookings/${id}/cancel`, { reason: ' ' }, admin)).status).toBe(400);
    const response = await postJson(`/api/bookings/${id}/cancel`, { reason }, admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancel_reason: 'admin', cancel_note: reason });
    expect(await claimCount(id)).toBe(0);
    expect(await listOf(patient)).toEqual([
      expect.objectContaining({ _id: id, status: 'cancelled', cancelNote: reason }),
    ]);
    expect(await slotsOf(date, 'orthodontic-consultation')).toContain('09.00 AM - 10.00 AM');
    expect((await postJson(`/api/bookings/${id}/cancel`, { reason }, admin)).status).toBe(404);
  });

  it('refunds a paid booking through the provider, unless the admin chooses not to', async () => {
    const patient = await newPatient();
    const paidBooking = async (slot: string) => {
      const id = await booked(patient, CLEANING, clinicDay(36), slot);
      const { clientSecret } = await (
        await postJson('/api/create-payment-intent', { bookingId: id }, patient.auth)
      ).json<{ clientSecret: string }>();
      const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
      expect((await postJson('/api/demo-payments/confirm', { clientSecret, card }, patient.auth)).status).toBe(200);
      return id;
    };
    const payment = (id: string) =>
      env.DB.prepare('SELECT refund_status, refund_reason, refund_amount_cents FROM payments WHERE booking_id = ?1')
        .bind(id)
        .first();

    const refunded = await paidBooking('10.00 AM - 10.30 AM');
    const response = await postJson(
      `/api/bookings/${refunded}/cancel`,
      { reason: 'The clinic closes that day' },
      admin,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: 'Booking cancelled',
      refund: { status: 'succeeded', amount: 80, currency: 'usd' },
    });
    expect(await payment(refunded)).toEqual({
      refund_status: 'succeeded',
      refund_reason: 'cancelled',
      refund_amount_cents: 8000,
    });

    // Booked again once the first was cancelled: this time the clinic keeps the money.
    const kept = await paidBooking('11.00 AM - 11.30 AM');
    const notRefunded = await postJson(
      `/api/bookings/${kept}/cancel`,
      { reason: 'Missed twice', refund: false },
      admin,
    );
    expect(await notRefunded.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    expect(await row(kept)).toMatchObject({ status: 'cancelled', cancel_reason: 'admin', cancel_note: 'Missed twice' });
    expect(await payment(kept)).toEqual({ refund_status: null, refund_reason: null, refund_amount_cents: null });
    expect((await postJson(`/api/bookings/${kept}/cancel`, { reason: 'x', refund: 'no' }, admin)).status).toBe(400);
  });

  it('keeps a patient’s own cancel rules: their own unpaid booking only', async () => {
    const [owner, other] = [await newPatient(), await newPatient()];
    const id = await booked(owner, CLEANING, clinicDay(37), '10.00 AM - 10.30 AM');
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: other.auth })).status).toBe(403);
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: owner.auth })).status).toBe(200);
    expect(await row(id)).toMatchObject({ cancel_reason: 'patient', cancel_note: null });
  });
});

describe('booking by phone', () => {
  it('finds a patient by name or email and books for them under their own rules', async () => {
    const patient = await newPatient('phoned');
    const found = await call('/api/users/search?q=PHONED', { headers: admin });
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual([
      {
        _id: patient.id,
        name: 'Patient phoned',
        email: patient.email,
        phone: '',
        noShows: 0,
        hasAccount: true,
        family: [],
      },
    ]);
    expect((await call('/api/users/search?q=x', { headers: admin })).status).toBe(400);
    expect((await call('/api/users/search?q=%25%25', { headers: admin })).status).toBe(200);
    expect(await (await call('/api/users/search?q=%25%25', { headers: admin })).json()).toEqual([]);
    expect((await call('/api/users/search?q=phoned', { headers: patient.auth })).status).toBe(403);

    const date = clinicDay(38);
    const body = {
      patientId: patient.id,
      phone: '555 0199',
      treatment: ORTHO,
      appointmentDate: date,
      slot: '09.00 AM - 10.00 AM',
    };
    const response = await postJson('/api/phone-bookings', body, admin);
    expect(response.status).toBe(201);
    const answer = await response.json<{ insertedId: string; patientId: string; message: string }>();
    expect(answer).toMatchObject({ patientId: patient.id, message: 'Booked for Patient phoned' });
    expect(await listOf(patient)).toEqual([
      expect.objectContaining({ _id: answer.insertedId, phone: '555 0199', patientName: 'Patient phoned' }),
    ]);
    expect((await postJson('/api/phone-bookings', body, patient.auth)).status).toBe(403);
  });

  it('refuses a double booking: a time taken (409, even at once with an online booking) and the same treatment twice a day', async () => {
    const [caller, online, third] = [await newPatient(), await newPatient(), await newPatient()];
    const date = clinicDay(39);
    const slot = '11.00 AM - 12.00 PM';
    const [byPhone, byPatient] = await Promise.all([
      postJson(
        '/api/phone-bookings',
        { patientId: caller.id, phone: '555 0101', treatment: ORTHO, appointmentDate: date, slot },
        admin,
      ),
      bookAs(online.auth, { treatment: ORTHO, appointmentDate: date, slot }),
    ]);
    expect([byPhone.status, byPatient.status].sort()).toEqual([201, 409]);
    const again = await postJson(
      '/api/phone-bookings',
      { patientId: third.id, phone: '555 0102', treatment: ORTHO, appointmentDate: date, slot },
      admin,
    );
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe(
      'This slot was just booked; please choose another one',
    );
    const winner = byPhone.status === 201 ? caller : online;
    const twice = await postJson(
      '/api/phone-bookings',
      { patientId: winner.id, phone: '555 0101', treatment: ORTHO, appointmentDate: date, slot: '02.00 PM - 03.00 PM' },
      admin,
    );
    expect(twice.status).toBe(409);
    expect((await twice.json<{ message: string }>()).message).toContain('This patient already has a booking on');
    const active = await env.DB.prepare(
      "SELECT count(*) AS n FROM bookings WHERE appointment_date = ?1 AND status = 'active'",
    )
      .bind(date)
      .first<number>('n');
    expect(active).toBe(1);
  });

  it('adds a new patient without a password, whom signing up with that email (verified) gives the record and its booking', async () => {
    const email = `new-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const date = clinicDay(40);
    const body = {
      patient: { name: 'Nora Newcomer', email: email.toUpperCase() },
      phone: '555 0142',
      treatment: CLEANING,
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
    };
    const response = await postJson('/api/phone-bookings', body, admin);
    expect(response.status).toBe(201);
    const { insertedId, patientId } = await response.json<{ insertedId: string; patientId: string }>();
    const user = await env.DB.prepare('SELECT email, name, role, firebase_uid, email_verified FROM users WHERE id = ?1')
      .bind(patientId)
      .first();
    expect(user).toEqual({ email, name: 'Nora Newcomer', role: 'patient', firebase_uid: null, email_verified: 0 });
    const again = await postJson('/api/phone-bookings', { ...body, slot: '10.00 AM - 10.30 AM' }, admin);
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toContain('already exists');

    // An unverified sign-up cannot take the record; a verified one can, and sees the booking.
    const unverified = await call(`/api/jwt?email=${encodeURIComponent(email)}`, {
      headers: bearer(emulatorIdToken({ email, verified: false })),
    });
    expect(unverified.status).toBe(403);
    const signedIn = await call(`/api/jwt?email=${encodeURIComponent(email)}`, {
      headers: bearer(emulatorIdToken({ email })),
    });
    expect(signedIn.status).toBe(200);
    const { accessToken } = await signedIn.json<{ accessToken: string }>();
    const mine = await (await call('/api/bookings', { headers: bearer(accessToken) })).json<{ _id: string }[]>();
    expect(mine.map((b) => b._id)).toEqual([insertedId]);
  });

  it('leaves no patient record when the booking is refused (the record is written with the booking, not before)', async () => {
    const patient = await newPatient();
    const date = clinicDay(41);
    await booked(patient, ROOT_CANAL, date, '09.00 AM - 10.30 AM');
    const email = `refused-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const response = await postJson(
      '/api/phone-bookings',
      {
        patient: { name: 'Rita Refused', email },
        phone: '555 0143',
        treatment: ROOT_CANAL,
        appointmentDate: date,
        slot: '09.00 AM - 10.30 AM',
      },
      admin,
    );
    expect(response.status).toBe(409);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?1').bind(email).first('n')).toBe(0);
  });

  it('answers 400 for a body that names no patient or both, and 404 for an unknown patient', async () => {
    const base = {
      phone: '555 0100',
      treatment: CLEANING,
      appointmentDate: clinicDay(42),
      slot: '09.00 AM - 09.30 AM',
    };
    const neither = await postJson('/api/phone-bookings', base, admin);
    expect(neither.status).toBe(400);
    expect((await neither.json<{ message: string }>()).message).toContain('Send either patientId');
    const both = await postJson(
      '/api/phone-bookings',
      { ...base, patientId: 'x', patient: { name: 'A', email: 'a@example.com' } },
      admin,
    );
    expect(both.status).toBe(400);
    expect((await postJson('/api/phone-bookings', { ...base, patientId: 'no-such-user' }, admin)).status).toBe(404);
    expect((await postJson('/api/phone-bookings', { ...base, patientId: 'x', phone: '' }, admin)).status).toBe(400);
  });
});

describe('what the patient and the waitlist hear of a front-desk change', () => {
  const box = mailbox();
  const MAIL = { MAILER: box.mailer };
  const HOUR = 3_600_000;
  // A free treatment (never released for non-payment, whenever the cron runs) whose only doctor
  // works 09:00-10:00: one booking fills its day, so a waitlist can form.
  const SHORT = 'short-check';
  const SLOT = '09.00 AM - 10.00 AM';

  beforeAll(async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO specialties (id, name, position) VALUES ('short-visits', 'Short visits', 9)"),
      env.DB.prepare(
        `INSERT INTO doctors (id, name, email, specialty_id, working_days, start_minute, end_minute, image_key)
         VALUES ('dr-brief', 'Dr Brief', 'brief@clinic.test', 'short-visits', 127, 540, 600, 'doctors/brief.png')`,
      ),
      env.DB.prepare(
        "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('short-check', 'Short Check', 0, 60, 'short-visits', 60)",
      ),
    ]);
  });

  const send = (auth: Record<string, string>, path: string, body: unknown) =>
    call(
      path,
      { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      MAIL,
    );
  async function bookShort(patient: Patient, date: string): Promise<{ id: string; start: number }> {
    const response = await send(patient.auth, '/api/bookings', {
      treatment: SHORT,
      appointmentDate: date,
      slot: SLOT,
      phone: '555 0100',
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { insertedId: id } = await response.json<{ insertedId: string }>();
    return { id, start: await startOf(patient, id) };
  }
  const startOf = async (patient: Patient, id: string) =>
    Date.parse(
      (await (await call(`/api/bookings/${id}`, { headers: patient.auth })).json<{ startsAt: string }>()).startsAt,
    );
  async function wait(patient: Patient, date: string) {
    expect((await send(patient.auth, '/api/waitlist', { treatment: SHORT, from: date })).status).toBe(201);
  }
  const mailsTo = (patient: Patient, subject: string) =>
    box.to(patient.email).filter((mail) => mail.subject.startsWith(subject));
  const reminderRows = (bookingId: string) =>
    env.DB.prepare("SELECT status, outcome FROM reminders WHERE booking_id = ?1 AND kind = '24h'")
      .bind(bookingId)
      .all()
      .then((r) => r.results);
  /** "Nov 22": how a mail's subject names an ISO date. */
  const shortDate = (iso: string) =>
    new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

  it('a reschedule mails both times, moves the reminders to the new time, and offers the old time to the waitlist', async () => {
    const [holder, waiter] = [await newPatient('moving'), await newPatient('waiting')];
    const [from, to] = [clinicDay(50), clinicDay(51)];
    const old = await bookShort(holder, from);
    await wait(waiter, from);
    expect(mailsTo(waiter, 'A time is free')).toHaveLength(0);

    const moved = await send(holder.auth, `/api/bookings/${old.id}/reschedule`, { appointmentDate: to, slot: SLOT });
    expect(moved.status).toBe(200);
    const { insertedId } = await moved.json<{ insertedId: string }>();
    const [mail, ...more] = mailsTo(holder, 'Moved');
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(`Moved: Short Check is now on ${shortDate(to)} at 9:00 AM`);
    expect(mail?.text).toMatch(/has moved from \w+day, .* at 9:00 AM .* to \w+day, .* at 9:00 AM/);
    // The old time went to the first in line.
    expect(mailsTo(waiter, 'A time is free').map((m) => m.subject)).toEqual([
      `A time is free for you: Short Check on ${shortDate(from)} at 9:00 AM`,
    ]);

    // The old time's reminder is not sent; the new time's is, once.
    const newStart = await startOf(holder, insertedId);
    await runCron(old.start - 24 * HOUR, MAIL);
    expect(mailsTo(holder, 'Reminder')).toHaveLength(0);
    expect(await reminderRows(old.id)).toEqual([{ status: 'skipped', outcome: 'booking cancelled or moved' }]);
    await runCron(newStart - 24 * HOUR, MAIL);
    expect(mailsTo(holder, 'Reminder').map((m) => m.subject)).toEqual([
      `Reminder: Short Check tomorrow, ${shortDate(to)} at 9:00 AM`,
    ]);
    expect(await reminderRows(insertedId)).toEqual([{ status: 'sent', outcome: 'queued' }]);
  });

  it('a cancellation for the patient mails them who cancelled and why, and offers the time to the waitlist', async () => {
    const [holder, waiter] = [await newPatient('called-off'), await newPatient('next-in-line')];
    const date = clinicDay(52);
    const { id } = await bookShort(holder, date);
    await wait(waiter, date);
    const reason = 'Dr Brief is away that morning';
    expect((await send(admin, `/api/bookings/${id}/cancel`, { reason })).status).toBe(200);
    const [mail, ...more] = mailsTo(holder, 'Cancelled');
    expect(more).toHaveLength(0);
    expect(mail?.text).toContain('The clinic cancelled your Short Check appointment.');
    expect(mail?.text).toContain(`Reason: ${reason}`);
    expect(mailsTo(waiter, 'A time is free').map((m) => m.subject)).toEqual([
      `A time is free for you: Short Check on ${shortDate(date)} at 9:00 AM`,
    ]);
  });
});

describe('the audit trail of the front desk’s actions', () => {
  interface Entry {
    actor: { email: string | null; label: string };
    action: string;
    target: { type: string; id: string; name: string | null };
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }
  /** What GET /api/audit lists of one action about one target. */
  async function entries(action: string, targetId: string): Promise<Entry[]> {
    const response = await call(`/api/audit?type=${action}&limit=100`, { headers: admin });
    expect(response.status).toBe(200);
    return (await response.json<{ entries: Entry[] }>()).entries.filter((e) => e.target.id === targetId);
  }

  it('writes one row per reschedule, by whoever moved it, and none for a refused one', async () => {
    const [patient, other] = [await newPatient('audited'), await newPatient()];
    const date = clinicDay(43);
    const id = await booked(patient, ORTHO, date, '09.00 AM - 10.00 AM');
    await booked(other, ORTHO, date, '11.00 AM - 12.00 PM');
    expect((await reschedule(id, patient.auth, { appointmentDate: date, slot: '11.00 AM - 12.00 PM' })).status).toBe(
      409,
    );
    expect(await entries('booking.rescheduled', id)).toEqual([]);
    const response = await reschedule(id, patient.auth, { appointmentDate: date, slot: '02.00 PM - 03.00 PM' });
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect(await entries('booking.rescheduled', id)).toEqual([
      {
        _id: expect.any(String),
        at: expect.any(String),
        actor: { id: patient.id, email: patient.email, label: 'patient' },
        action: 'booking.rescheduled',
        target: { type: 'booking', id, name: `Patient audited: ${ORTHO}, ${date}, 09.00 AM - 10.00 AM` },
        // Only what changed: the same day, another time, and the booking that replaced it.
        before: { slot: '09.00 AM - 10.00 AM' },
        after: { slot: '02.00 PM - 03.00 PM', movedTo: insertedId },
      },
    ]);
  });

  it('writes attendance, cancellation (and its refund) and phone bookings by the admin, and nothing for refusals', async () => {
    const patient = await newPatient('desk');
    const past = await addPastVisit(patient.email, 4);
    const upcoming = await booked(patient, CLEANING, clinicDay(44), '09.00 AM - 09.30 AM');
    expect((await postJson(`/api/bookings/${upcoming}/attendance`, { status: 'attended' }, admin)).status).toBe(409);
    expect(await entries('booking.attended', upcoming)).toEqual([]);
    expect((await postJson(`/api/bookings/${past}/attendance`, { status: 'no_show' }, admin)).status).toBe(200);
    expect(await entries('booking.no_show', past)).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ email: 'admin@clinic.test', label: 'admin' }),
        before: { status: 'active' },
        after: { status: 'no_show' },
      }),
    ]);

    const { clientSecret } = await (
      await postJson('/api/create-payment-intent', { bookingId: upcoming }, patient.auth)
    ).json<{ clientSecret: string }>();
    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
    await postJson('/api/demo-payments/confirm', { clientSecret, card }, patient.auth);
    expect((await postJson(`/api/bookings/${upcoming}/cancel`, { reason: 'Flooded' }, admin)).status).toBe(200);
    expect(await entries('booking.cancelled', upcoming)).toEqual([
      expect.objectContaining({
        before: { status: 'active', paid: true },
        after: { status: 'cancelled', cancelReason: 'admin', cancelNote: 'Flooded' },
      }),
    ]);
    // Its refund goes the way of every cancellation's, asked by the admin who cancelled.
    expect(await entries('payment.refund_requested', upcoming)).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ email: 'admin@clinic.test' }),
        after: { refundStatus: 'pending', refundReason: 'cancelled' },
      }),
    ]);

    const date = clinicDay(45);
    const slot = '09.00 AM - 10.00 AM';
    const phoned = await postJson(
      '/api/phone-bookings',
      { patientId: patient.id, phone: '555 0100', treatment: ORTHO, appointmentDate: date, slot },
      admin,
    );
    const { insertedId } = await phoned.json<{ insertedId: string }>();
    expect(await entries('booking.booked_by_phone', insertedId)).toEqual([
      expect.objectContaining({
        after: {
          patientId: patient.id,
          email: patient.email,
          newPatient: false,
          treatment: ORTHO,
          appointmentDate: date,
          slot,
          payment: 'at the clinic',
        },
      }),
    ]);
    const before = (await call('/api/audit?type=booking.booked_by_phone&limit=100', { headers: admin })).clone();
    const count = (await before.json<{ entries: unknown[] }>()).entries.length;
    const other = await newPatient();
    const refused = await postJson(
      '/api/phone-bookings',
      { patientId: other.id, phone: '555 0100', treatment: ORTHO, appointmentDate: date, slot },
      admin,
    );
    expect(refused.status).toBe(409);
    const after = await (await call('/api/audit?type=booking.booked_by_phone&limit=100', { headers: admin })).json<{
      entries: unknown[];
    }>();
    expect(after.entries).toHaveLength(count);
  });
});
