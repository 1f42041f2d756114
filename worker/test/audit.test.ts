import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS, type AuditEntry, type AuditPage } from '../../contract/audit.ts';
import { signLink } from '../src/messages/link-tokens.ts';
import { smsSigningKey, twilioSignature } from '../src/messages/sms.ts';
import {
  accessTokenFor,
  addDoctorAs,
  addPastVisit,
  addUser,
  bearer,
  bookAs,
  call,
  clinicDay,
  DEMO_CARD,
  missedCardVisit,
  newPatient,
  postJson,
  runCron,
  seed,
  slotsOf,
} from './helpers.ts';

let admin: Record<string, string>;
let adminId: string;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  adminId = (await env.DB.prepare("SELECT id FROM users WHERE email = 'admin@clinic.test'").first<string>('id')) ?? '';
});

function send(method: string, path: string, body?: unknown, headers = admin) {
  return call(path, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function expectStatus(response: Response, status: number): Promise<void> {
  expect(response.status, await response.clone().text()).toBe(status);
}

/** GET /api/audit with a query, as an admin (200 expected). */
async function page(query = ''): Promise<AuditPage> {
  const response = await call(`/api/audit${query}`, { headers: admin });
  await expectStatus(response, 200);
  return response.json();
}

/** Every entry about one target, oldest first, read through GET /api/audit page by page. */
async function entriesAbout(targetId: string): Promise<AuditEntry[]> {
  const found: AuditEntry[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const { entries, nextCursor }: AuditPage = await page(`?limit=100&cursor=${cursor}`);
    found.push(...entries.filter((entry) => entry.target.id === targetId));
    cursor = nextCursor;
  }
  return found.reverse();
}

const rowCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<number>('n')) ?? 0;

const byAdmin = { id: expect.any(String), email: 'admin@clinic.test', label: 'admin' };

/** A patient's unpaid booking of a 30-minute treatment some days ahead. */
let bookingDay = 3;
async function bookingOf(auth: Record<string, string>): Promise<string> {
  while (true) {
    const date = clinicDay(bookingDay++);
    const [slot] = await slotsOf(date, 'teeth-cleaning');
    if (!slot) continue;
    const response = await bookAs(auth, { treatment: 'Teeth Cleaning', appointmentDate: date, slot });
    await expectStatus(response, 201);
    return (await response.json<{ insertedId: string }>()).insertedId;
  }
}

describe('GET /api/audit', () => {
  it('is for admins: 401 without a token, 403 for a patient', async () => {
    expect((await call('/api/audit')).status).toBe(401);
    const { auth } = await newPatient();
    const refused = await call('/api/audit', { headers: auth });
    expect(refused.status).toBe(403);
  });

  it('answers 400 with a message for a bad cursor, type or limit', async () => {
    const bad: [string, string][] = [
      ['?cursor=not!a*cursor', 'cursor is not valid'],
      [`?cursor=${btoa('2026-01-01|7')}`, 'cursor is not valid'],
      ['?cursor=%3D%3D%3D', 'cursor is not valid'],
      ['?type=user.renamed', 'type must be one of'],
      ['?type=USER.MADE_ADMIN', 'type must be one of'],
      ['?limit=0', 'limit must be a whole number from 1 to 100'],
      ['?limit=101', 'limit must be a whole number from 1 to 100'],
      ['?limit=ten', 'limit must be a whole number from 1 to 100'],
    ];
    for (const [query, message] of bad) {
      const response = await call(`/api/audit${query}`, { headers: admin });
      expect(response.status, query).toBe(400);
      expect((await response.json<{ message: string }>()).message, query).toContain(message);
    }
  });
});

describe('one audit row per change, in its batch', () => {
  it('makes admin and deletes a user; the rows outlive the user, under a pseudonym', async () => {
    const email = `audited-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const id = await addUser(email, 'Audited Person');
    await expectStatus(await send('PUT', `/api/users/admin/${id}`), 200);
    // Already an admin: nothing changes, nothing is written.
    await expectStatus(await send('PUT', `/api/users/admin/${id}`), 200);
    await expectStatus(await send('DELETE', `/api/users/${id}`), 200);
    const entries = await entriesAbout(id);
    expect(entries.map((e) => e.action)).toEqual(['user.made_admin', 'user.deleted']);
    const pseudonym = `Erased patient ${id.slice(0, 8)}`;
    expect(entries[0]).toMatchObject({
      actor: { ...byAdmin, id: adminId },
      target: { type: 'user', id, name: `${pseudonym} (${pseudonym})` },
      before: { role: 'patient' },
      after: { role: 'admin' },
    });
    expect(entries[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(JSON.stringify(entries)).not.toContain('Audited Person');
    expect(JSON.stringify(entries)).not.toContain(email);
    expect(entries[1]).toMatchObject({
      target: { type: 'user', id, name: pseudonym },
      before: { role: 'admin' },
      after: {
        erased: expect.arrayContaining(['form answers']),
        kept: expect.objectContaining({ payments: expect.any(String) }),
      },
    });
  });

  it('adds, edits (hours, days) and deletes a doctor; an edit that changes nothing writes none', async () => {
    const id = await addDoctorAs(admin, {
      name: 'Dr. Audit Trail',
      email: `dr-${crypto.randomUUID().slice(0, 6)}@clinic.test`,
      specialty: 'General Dentistry',
    });
    await expectStatus(await send('PUT', `/api/doctors/${id}`, { hours: { start: '10:00', end: '16:00' } }), 200);
    await expectStatus(await send('PUT', `/api/doctors/${id}`, { hours: { start: '10:00', end: '16:00' } }), 200);
    await expectStatus(await send('PUT', `/api/doctors/${id}`, { workingDays: [1, 2, 3] }), 200);
    await expectStatus(await send('DELETE', `/api/doctors/${id}`), 200);
    const entries = await entriesAbout(id);
    const every = (days: string[], hours: string) => days.map((day) => `${day} ${hours}`).join(', ');
    const week = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      [
        'doctor.added',
        null,
        expect.objectContaining({
          name: 'Dr. Audit Trail',
          specialty: 'General Dentistry',
          hours: every(week, '09:00-17:00'),
        }),
      ],
      ['doctor.updated', { hours: every(week, '09:00-17:00') }, { hours: every(week, '10:00-16:00') }],
      ['doctor.updated', { hours: every(week, '10:00-16:00') }, { hours: every(['Mon', 'Tue', 'Wed'], '10:00-16:00') }],
      [
        'doctor.deleted',
        expect.objectContaining({ name: 'Dr. Audit Trail', hours: every(['Mon', 'Tue', 'Wed'], '10:00-16:00') }),
        null,
      ],
    ]);
    expect(entries.every((e) => e.target.name === 'Dr. Audit Trail')).toBe(true);
  });

  it('adds, edits and deletes a treatment; one with upcoming bookings is deactivated instead', async () => {
    const added = await send('POST', '/api/treatments', {
      name: 'Audit Polish',
      price: 40,
      durationMinutes: 30,
      specialty: 'General Dentistry',
    });
    await expectStatus(added, 201);
    const { insertedId: id } = await added.json<{ insertedId: string }>();
    await expectStatus(await send('PUT', `/api/treatments/${id}`, { price: 45.5 }), 200);
    await expectStatus(await send('DELETE', `/api/treatments/${id}`), 200);
    expect((await entriesAbout(id)).map((e) => [e.action, e.target.name, e.before, e.after])).toEqual([
      [
        'treatment.added',
        'Audit Polish',
        null,
        {
          name: 'Audit Polish',
          price: 40,
          durationMinutes: 30,
          specialty: 'General Dentistry',
          active: true,
          recallMonths: null,
          payment: 'full',
          depositPercent: null,
        },
      ],
      ['treatment.updated', 'Audit Polish', { price: 40 }, { price: 45.5 }],
      ['treatment.deleted', 'Audit Polish', expect.objectContaining({ price: 45.5 }), null],
    ]);

    const { auth } = await newPatient();
    await bookingOf(auth);
    const deactivated = await send('DELETE', '/api/treatments/teeth-cleaning');
    expect(await deactivated.json()).toMatchObject({ deactivated: true });
    // Deleting it again deactivates nothing more: no second row.
    await send('DELETE', '/api/treatments/teeth-cleaning');
    expect((await entriesAbout('teeth-cleaning')).map((e) => [e.action, e.before, e.after])).toEqual([
      ['treatment.deactivated', { active: true }, { active: false }],
    ]);
    await expectStatus(await send('PUT', '/api/treatments/teeth-cleaning', { active: true }), 200);
  });

  it('changes the opening hours, adds and deletes a closure and a chair', async () => {
    const hours = await (await call('/api/clinic/hours')).json<{ weekday: number; open: string; close: string }[]>();
    // Longer Sundays strand no booking.
    const longer = hours.map((day) => (day.weekday === 0 ? { ...day, close: '18:00' } : day));
    expect(longer).not.toEqual(hours);
    const saved = await send('PUT', '/api/clinic/hours', { hours: longer });
    await expectStatus(saved, 200);
    const [hoursEntry] = await entriesAbout('hours');
    expect(hoursEntry).toMatchObject({
      action: 'clinic.hours_changed',
      target: { type: 'clinic', id: 'hours', name: 'Opening hours' },
      before: { hours },
      after: { hours: longer },
    });
    // The same week again changes nothing: no second row.
    await expectStatus(await send('PUT', '/api/clinic/hours', { hours: longer }), 200);
    expect(await entriesAbout('hours')).toHaveLength(1);

    const closure = await send('POST', '/api/closures', {
      from: clinicDay(200),
      to: clinicDay(201),
      reason: 'Audit training',
    });
    await expectStatus(closure, 201);
    const { insertedId: closureId } = await closure.json<{ insertedId: string }>();
    await expectStatus(await send('DELETE', `/api/closures/${closureId}`), 200);
    const closureName = `${clinicDay(200)} to ${clinicDay(201)}: Audit training`;
    expect((await entriesAbout(closureId)).map((e) => [e.action, e.target.name, e.before, e.after])).toEqual([
      ['closure.added', closureName, null, expect.objectContaining({ reason: 'Audit training', doctorId: null })],
      ['closure.deleted', closureName, expect.objectContaining({ from: clinicDay(200) }), null],
    ]);

    const chair = await send('POST', '/api/chairs', { name: 'Audit Chair' });
    await expectStatus(chair, 201);
    const { insertedId: chairId } = await chair.json<{ insertedId: string }>();
    await expectStatus(await send('PUT', `/api/chairs/${chairId}`, { name: 'Audit Chair 2' }), 200);
    await expectStatus(await send('PUT', `/api/chairs/${chairId}`, { name: 'Audit Chair 2' }), 200);
    await expectStatus(await send('DELETE', `/api/chairs/${chairId}`), 200);
    expect((await entriesAbout(chairId)).map((e) => [e.action, e.target.name, e.before, e.after])).toEqual([
      ['chair.added', 'Audit Chair', null, { name: 'Audit Chair' }],
      ['chair.renamed', 'Audit Chair 2', { name: 'Audit Chair' }, { name: 'Audit Chair 2' }],
      ['chair.deleted', 'Audit Chair 2', { name: 'Audit Chair 2' }, null],
    ]);
  });

  it('keeps a booking a closure left for review, once', async () => {
    const { auth } = await newPatient();
    const id = await bookingOf(auth);
    const { date } = await (await call(`/api/bookings/${id}`, { headers: auth })).json<{ date: string }>();
    const closure = await send('POST', '/api/closures', { from: date, to: date, reason: 'Audit', bookings: 'keep' });
    await expectStatus(closure, 201);
    await expectStatus(await send('POST', `/api/bookings/${id}/keep`), 200);
    await expectStatus(await send('POST', `/api/bookings/${id}/keep`), 409);
    await expectStatus(
      await send('DELETE', `/api/closures/${(await closure.json<{ insertedId: string }>()).insertedId}`),
      200,
    );
    expect((await entriesAbout(id)).filter((e) => e.action === 'booking.kept').map((e) => [e.before, e.after])).toEqual(
      [[{ needsReview: true }, { needsReview: false }]],
    );
  });

  it('adds, renames and deletes a specialty', async () => {
    const added = await send('POST', '/api/specialties', { name: 'Audit Surgery' });
    await expectStatus(added, 201);
    const { insertedId } = await added.json<{ insertedId: string }>();
    await expectStatus(await send('PUT', `/api/specialties/${insertedId}`, { name: 'Audit Oral Surgery' }), 200);
    await expectStatus(await send('PUT', `/api/specialties/${insertedId}`, { name: 'Audit Oral Surgery' }), 200);
    await expectStatus(await send('DELETE', `/api/specialties/${insertedId}`), 200);
    expect((await entriesAbout(insertedId)).map((e) => [e.action, e.target.name, e.before, e.after])).toEqual([
      ['specialty.added', 'Audit Surgery', null, { name: 'Audit Surgery' }],
      ['specialty.renamed', 'Audit Oral Surgery', { name: 'Audit Surgery' }, { name: 'Audit Oral Surgery' }],
      ['specialty.deleted', 'Audit Oral Surgery', { name: 'Audit Oral Surgery' }, null],
    ]);
  });

  it('approves and hides a review, with the status it had before', async () => {
    const { email, auth } = await newPatient('reviewer');
    await addPastVisit(email);
    const posted = await postJson('/api/reviews', { review: 'Kind and careful people.', location: 'Queens' }, auth);
    const { insertedId: id } = await posted.json<{ insertedId: string }>();
    await expectStatus(await send('PUT', `/api/reviews/${id}/status`, { status: 'approved', version: 1 }), 200);
    // The same status again changes nothing and writes nothing.
    await expectStatus(await send('PUT', `/api/reviews/${id}/status`, { status: 'approved', version: 1 }), 200);
    await expectStatus(await send('PUT', `/api/reviews/${id}/status`, { status: 'hidden', version: 1 }), 200);
    expect((await entriesAbout(id)).map((e) => [e.action, e.target.name, e.before, e.after])).toEqual([
      ['review.approved', 'Patient reviewer', { status: 'pending' }, { status: 'approved' }],
      ['review.hidden', 'Patient reviewer', { status: 'approved' }, { status: 'hidden' }],
    ]);
  });

  it('records an admin cancelling for a patient, not a patient cancelling their own booking', async () => {
    const { auth } = await newPatient();
    const own = await bookingOf(auth);
    await expectStatus(await send('DELETE', `/api/bookings/${own}`, undefined, auth), 200);
    expect(await entriesAbout(own)).toEqual([]);
    const forPatient = await bookingOf(auth);
    await expectStatus(await send('DELETE', `/api/bookings/${forPatient}`), 200);
    expect(await entriesAbout(forPatient)).toEqual([
      expect.objectContaining({
        action: 'booking.cancelled',
        actor: byAdmin,
        target: { type: 'booking', id: forPatient, name: expect.stringMatching(/^Patient patient: Teeth Cleaning, /) },
        before: { status: 'active', paid: false },
        after: { status: 'cancelled', cancelReason: 'admin' },
      }),
    ]);
  });

  describe('payments (demo provider), by the patient who pays', () => {
    const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' });
    async function pay(auth: Record<string, string>, bookingId: string, number: string) {
      const intent = await postJson('/api/create-payment-intent', { bookingId }, auth);
      const { clientSecret } = await intent.json<{ clientSecret: string }>();
      return { confirm: () => postJson('/api/demo-payments/confirm', { clientSecret, card: card(number) }, auth) };
    }
    async function record(auth: Record<string, string>, bookingId: string, confirmed: Response) {
      const { paymentIntent } = await confirmed.json<{ paymentIntent: { id: string } }>();
      await expectStatus(await postJson('/api/payments', { transactionId: paymentIntent.id, bookingId }, auth), 200);
      return paymentIntent.id;
    }

    it('a decline, then the payment, recorded twice: one row each', async () => {
      const { auth, email } = await newPatient('payer');
      const bookingId = await bookingOf(auth);
      expect((await (await pay(auth, bookingId, '4000 0000 0000 0002')).confirm()).status).toBe(402);
      const confirmed = await (await pay(auth, bookingId, '4242 4242 4242 4242')).confirm();
      const transactionId = await record(auth, bookingId, confirmed);
      await expectStatus(await postJson('/api/payments', { transactionId, bookingId }, auth), 200);
      const entries = await entriesAbout(bookingId);
      expect(entries.map((e) => [e.action, e.actor.email, e.actor.label, e.before, e.after])).toEqual([
        ['payment.failed', email, 'patient', null, { paymentError: 'Your card was declined.' }],
        [
          'payment.succeeded',
          email,
          'patient',
          { paid: false },
          { paid: true, transactionId, amount: expect.any(Number), currency: 'usd' },
        ],
      ]);
    });

    it('a payment for a booking cancelled meanwhile is flagged for a refund', async () => {
      const { auth } = await newPatient('late');
      const bookingId = await bookingOf(auth);
      const payment = await pay(auth, bookingId, '4242 4242 4242 4242');
      await expectStatus(await send('DELETE', `/api/bookings/${bookingId}`, undefined, auth), 200);
      const transactionId = await record(auth, bookingId, await payment.confirm());
      expect((await entriesAbout(bookingId)).map((e) => [e.action, e.after])).toEqual([
        [
          'payment.refund_due',
          { transactionId, amount: expect.any(Number), currency: 'usd', refundReason: 'booking_not_active' },
        ],
      ]);
    });

    it('a paid booking cancelled by its patient: the refund asked, made, and failing late, each a row', async () => {
      const { auth, email } = await newPatient('refunded');
      const bookingId = await bookingOf(auth);
      const transactionId = await record(
        auth,
        bookingId,
        await (await pay(auth, bookingId, '4000 0000 0000 5126')).confirm(),
      );
      await expectStatus(await send('DELETE', `/api/bookings/${bookingId}`, undefined, auth), 200);
      expect((await entriesAbout(bookingId)).map((e) => [e.action, e.actor.email, e.before, e.after])).toEqual([
        ['payment.succeeded', email, { paid: false }, expect.objectContaining({ paid: true, transactionId })],
        [
          'payment.refund_requested',
          email,
          { refundStatus: null },
          { refundStatus: 'pending', refundReason: 'cancelled' },
        ],
      ]);
      // The demo provider refunds at once; this test card's refund fails at the Cron Trigger's next sweep.
      await runCron(Date.now());
      const moves = await entriesAbout(transactionId);
      expect(moves.map((e) => [e.action, e.actor.label, e.before, e.after])).toEqual([
        ['payment.refunded', 'system', { refundStatus: 'pending' }, { refundStatus: 'succeeded' }],
        [
          'payment.refund_failed',
          'system',
          { refundStatus: 'succeeded' },
          { refundStatus: 'failed', failure: expect.any(String) },
        ],
      ]);
      expect(moves[0]?.target.name).toMatch(/^Patient refunded: Teeth Cleaning, /);
      await runCron(Date.now());
      expect(await entriesAbout(transactionId)).toHaveLength(2);
    });
  });

  it('changes the message settings; saving the same again writes nothing', async () => {
    const change = { secondReminder: true, clinicPhone: '+1 555 0100' };
    await expectStatus(await send('PUT', '/api/messages/settings', change), 200);
    await expectStatus(await send('PUT', '/api/messages/settings', change), 200);
    const [entry, ...more] = await entriesAbout('messages');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'clinic.messages_changed',
      actor: byAdmin,
      target: { type: 'clinic', id: 'messages', name: 'Message settings' },
      before: { secondReminder: false, clinicPhone: expect.any(String) },
      after: change,
    });
  });

  it('records the front desk’s actions: reschedule, attendance, a phone booking', async () => {
    const { auth, email, id: patientId } = await newPatient();
    const booking = await bookingOf(auth);
    const moved = await send('POST', `/api/bookings/${booking}/reschedule`, {
      appointmentDate: clinicDay(59),
      slot: '04.00 PM - 04.30 PM',
    });
    await expectStatus(moved, 200);
    expect((await entriesAbout(booking)).map((e) => [e.action, e.actor])).toEqual([['booking.rescheduled', byAdmin]]);

    const visit = await addPastVisit(email, 5);
    await expectStatus(await send('POST', `/api/bookings/${visit}/attendance`, { status: 'attended' }), 200);
    await expectStatus(await send('POST', `/api/bookings/${visit}/attendance`, { status: 'no_show' }), 200);
    // The same mark again (an outbox's retry) and the same note again change nothing and write nothing.
    await expectStatus(await send('POST', `/api/bookings/${visit}/attendance`, { status: 'no_show' }), 200);
    for (const note of ['Bring the X-rays', 'Bring the X-rays', '']) {
      await expectStatus(await send('PUT', `/api/bookings/${visit}/note`, { note, version: 1 }), 200);
    }
    expect((await entriesAbout(visit)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['booking.attended', { status: 'active' }, { status: 'attended' }],
      ['booking.no_show', { status: 'attended' }, { status: 'no_show' }],
      ['booking.noted', null, { note: 'Bring the X-rays' }],
      ['booking.noted', null, { note: null }],
    ]);

    const phoned = await send('POST', '/api/phone-bookings', {
      patientId,
      phone: '555 0100',
      treatment: 'Teeth Cleaning',
      appointmentDate: clinicDay(58),
      slot: '04.00 PM - 04.30 PM',
    });
    await expectStatus(phoned, 201);
    const { insertedId } = await phoned.json<{ insertedId: string }>();
    expect((await entriesAbout(insertedId)).map((e) => e.action)).toEqual(['booking.booked_by_phone']);
  });

  it('changes the cancellation and reschedule policy; saving the same again writes nothing', async () => {
    await expectStatus(await send('PUT', '/api/clinic/policy', { rescheduleCutoffHours: 12 }), 200);
    await expectStatus(await send('PUT', '/api/clinic/policy', { rescheduleCutoffHours: 12 }), 200);
    expect(await entriesAbout('policy')).toEqual([
      expect.objectContaining({
        action: 'clinic.policy_changed',
        actor: byAdmin,
        target: { type: 'clinic', id: 'policy', name: 'Cancellation and reschedule policy' },
        before: { rescheduleCutoffHours: 24 },
        after: { rescheduleCutoffHours: 12 },
      }),
    ]);
    await expectStatus(await send('PUT', '/api/clinic/policy', { rescheduleCutoffHours: 24 }), 200);
  });

  it('records recalls, a patient’s answers by link, and STOP and START by SMS', async () => {
    const { auth, id: patientId } = await newPatient();
    const added = await send('POST', '/api/recalls', {
      patientId,
      treatmentId: 'teeth-cleaning',
      dueDate: clinicDay(40),
    });
    await expectStatus(added, 201);
    const { insertedId: recall } = await added.json<{ insertedId: string }>();
    await expectStatus(await send('PUT', `/api/recalls/${recall}`, { doNotContact: true }), 200);
    expect((await entriesAbout(recall)).map((e) => [e.action, e.actor])).toEqual([
      ['recall.added', byAdmin],
      ['recall.changed', byAdmin],
    ]);

    const booking = await bookingOf(auth);
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    for (const action of ['confirm', 'callback'] as const) {
      const token = await signLink(env, { action, id: booking, version: 1, expiresAt });
      await expectStatus(await send('POST', `/api/links/${token}/${action}`, undefined, {}), 200);
    }
    expect((await entriesAbout(booking)).map((e) => [e.action, e.actor.label, e.after])).toEqual([
      ['booking.confirmed', 'patient', { confirmation: 'confirmed' }],
      ['booking.callback_requested', 'patient', { confirmation: 'callback' }],
    ]);

    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    await expectStatus(await send('PUT', '/api/users/me/sms', { phone, smsConsent: true }, auth), 200);
    for (const word of ['STOP', 'START']) {
      const body = new URLSearchParams({ From: phone, Body: word });
      const signature = await twilioSignature(smsSigningKey(env), 'https://clinic.test/api/sms/inbound', body);
      await expectStatus(
        await call('/api/sms/inbound', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
          body,
        }),
        200,
      );
    }
    expect((await entriesAbout(phone)).map((e) => e.action)).toEqual(['sms.stopped', 'sms.started']);
  });

  it('records staff opening a family member’s booking and receipt, not the account holder opening it', async () => {
    const { auth } = await newPatient();
    const added = await send(
      'POST',
      '/api/users/me/dependants',
      { name: 'Tess Audit', birthDate: '2014-03-03', relationship: 'child' },
      auth,
    );
    await expectStatus(added, 201);
    const { insertedId: tess } = await added.json<{ insertedId: string }>();
    const date = clinicDay(bookingDay++);
    const [slot] = await slotsOf(date, 'teeth-cleaning');
    const booked = await send(
      'POST',
      '/api/bookings',
      { treatment: 'teeth-cleaning', appointmentDate: date, slot, patientId: tess },
      auth,
    );
    await expectStatus(booked, 201);
    const { insertedId: booking } = await booked.json<{ insertedId: string }>();
    await expectStatus(await send('GET', `/api/bookings/${booking}`, undefined, auth), 200);
    expect(await entriesAbout(tess)).toEqual([]);
    await expectStatus(await send('GET', `/api/bookings/${booking}`), 200);
    await expectStatus(await send('GET', `/api/bookings/${booking}/receipt`), 404); // no payment yet: still a read
    expect((await entriesAbout(tess)).map((e) => [e.action, e.actor, e.target.name, e.after])).toEqual([
      ['record.read', byAdmin, 'Tess Audit', { booking }],
      ['record.read', byAdmin, 'Tess Audit', { booking }],
    ]);
  });

  it('records a form saved by the admin and a form answered by the patient', async () => {
    const saved = await send('POST', '/api/forms', {
      title: 'Intake',
      renewMonths: null,
      treatments: ['teeth-cleaning'],
      items: [{ linkId: 'reason', text: 'What brings you in?', type: 'string', required: true }],
    });
    await expectStatus(saved, 201);
    const { _id: formId } = await saved.json<{ _id: string }>();
    expect((await entriesAbout(formId)).map((e) => [e.action, e.actor, e.target.name, e.after])).toEqual([
      ['form.saved', byAdmin, 'Intake', { version: 1, questions: 1 }],
    ]);
    const { auth } = await newPatient();
    const date = clinicDay(bookingDay++);
    const [slot] = await slotsOf(date, 'teeth-cleaning');
    const booked = await send(
      'POST',
      '/api/bookings',
      { treatment: 'teeth-cleaning', appointmentDate: date, slot },
      auth,
    );
    await expectStatus(booked, 201);
    const { insertedId: booking } = await booked.json<{ insertedId: string }>();
    await expectStatus(
      await send('PUT', `/api/bookings/${booking}/forms/${formId}`, { answers: { reason: 'A chipped tooth' } }, auth),
      200,
    );
    expect((await entriesAbout(booking)).map((e) => [e.action, e.target.name, e.after])).toEqual([
      ['form.answered', expect.stringMatching(/: Intake$/), { form: 'Intake', version: 1 }],
    ]);
  });

  it('records a fee charged, one not charged, its payment by link, and a fee waived', async () => {
    await expectStatus(
      await send('POST', '/api/treatments', {
        name: 'Audit card visit',
        price: 120,
        durationMinutes: 30,
        specialty: 'General Dentistry',
        payment: 'card',
      }),
      201,
    );
    await expectStatus(await send('PUT', '/api/clinic/policy', { noShowFee: 30 }), 200);
    try {
      const charged = await missedCardVisit('audit-fee', 'Audit card visit');
      const declined = await missedCardVisit('audit-fee-declined', 'Audit card visit', {
        number: '4000 0000 0000 0341',
        slot: '09.30 AM - 10.00 AM',
      });
      // From here on the clock is pinned after both visits: the desk acts with a token of that time.
      admin = declined.desk;
      for (const visit of [charged, declined]) {
        await expectStatus(await send('POST', `/api/bookings/${visit.id}/attendance`, { status: 'no_show' }), 200);
      }
      const feeOf = (bookingId: string) =>
        env.DB.prepare('SELECT id FROM fees WHERE booking_id = ?1').bind(bookingId).first<string>('id');
      const chargedFee = (await feeOf(charged.id)) ?? '';
      const unpaidFee = (await feeOf(declined.id)) ?? '';
      await expectStatus(await send('POST', `/api/fees/${chargedFee}/waive`), 200);
      const intent = await send('POST', '/api/create-payment-intent', { feeId: unpaidFee }, declined.auth);
      const { clientSecret } = await intent.json<{ clientSecret: string }>();
      await expectStatus(
        await send('POST', '/api/demo-payments/confirm', { clientSecret, card: DEMO_CARD }, declined.auth),
        200,
      );
      const trail = async (id: string) =>
        (await entriesAbout(id)).map((e) => [e.action, e.actor.email ?? e.actor.label, e.target.name, e.after]);
      expect(await trail(chargedFee)).toEqual([
        [
          'fee.charged',
          'admin@clinic.test',
          expect.stringMatching(/^Missed-appointment fee, Patient audit-fee: Audit card visit, /),
          { amount: '$30.00', card: 'Visa ending in 4242' },
        ],
        [
          'fee.waived',
          'admin@clinic.test',
          expect.stringMatching(/^Missed-appointment fee/),
          { amount: '$30.00', refunded: true },
        ],
      ]);
      expect(await trail(unpaidFee)).toEqual([
        [
          'fee.unpaid',
          'admin@clinic.test',
          expect.stringMatching(/^Missed-appointment fee/),
          { amount: '$30.00', why: 'The card on file was declined' },
        ],
        [
          'fee.paid',
          declined.email,
          expect.stringMatching(/^Missed-appointment fee/),
          { amount: '$30.00', transactionId: expect.stringMatching(/^pi_demo_/) },
        ],
      ]);
    } finally {
      vi.useRealTimers();
      admin = bearer(await accessTokenFor('admin@clinic.test'));
    }
  });

  it('has written every action of the contract by now', async () => {
    const { results } = await env.DB.prepare('SELECT DISTINCT action FROM audit_log').all<{ action: string }>();
    expect(results.map((row) => row.action).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});

describe('a failed change leaves no row', () => {
  it('the 4xx answers of the admin API write nothing', async () => {
    const unverified = await addUser(
      `unverified-${crypto.randomUUID().slice(0, 6)}@example.com`,
      'Not Yet',
      'patient',
      {
        verified: false,
      },
    );
    const { auth } = await newPatient();
    await bookingOf(auth);
    const { results: doctors } = await env.DB.prepare('SELECT id, email FROM doctors ORDER BY id LIMIT 2').all<{
      id: string;
      email: string;
    }>();
    const [first, second] = doctors;
    const generalDentistry = { price: 1, durationMinutes: 30, specialty: 'General Dentistry' };
    const before = await rowCount();
    const refusals: [() => Promise<Response>, number][] = [
      [() => send('PUT', `/api/users/admin/${unverified}`), 403],
      [() => send('PUT', '/api/users/admin/no-such-user'), 404],
      [() => send('DELETE', '/api/users/no-such-user'), 404],
      [() => send('DELETE', `/api/users/${adminId}`), 403],
      [
        () => send('POST', '/api/doctors', { name: 'No Photo', email: 'np@clinic.test', specialty: 'Endodontics' }),
        400,
      ],
      [() => send('PUT', `/api/doctors/${first?.id}`, { email: second?.email }), 409],
      [() => send('PUT', '/api/doctors/no-such-doctor', { name: 'X' }), 404],
      [() => send('DELETE', '/api/doctors/no-such-doctor'), 404],
      [() => send('POST', '/api/treatments', { name: 'Teeth Cleaning', ...generalDentistry }), 409],
      [() => send('PUT', '/api/treatments/teeth-cleaning', { name: 'Cavity Filling' }), 409],
      [() => send('PUT', '/api/treatments/no-such-treatment', { price: 1 }), 404],
      [() => send('DELETE', '/api/treatments/no-such-treatment'), 404],
      [() => send('PUT', '/api/clinic/hours', { hours: [] }), 409],
      [() => send('POST', '/api/closures', { from: clinicDay(5), to: clinicDay(4), reason: 'Backwards' }), 400],
      [
        () => send('POST', '/api/closures', { from: clinicDay(5), to: clinicDay(5), reason: 'X', doctorId: 'nobody' }),
        400,
      ],
      [() => send('DELETE', '/api/closures/no-such-closure'), 404],
      [() => send('POST', '/api/chairs', { name: 'Audit Chair' }), 201],
      [() => send('POST', '/api/chairs', { name: 'audit chair' }), 409],
      [() => send('DELETE', '/api/chairs/no-such-chair'), 404],
      [() => send('PUT', '/api/reviews/no-such-review/status', { status: 'approved', version: 1 }), 404],
      [() => send('PUT', '/api/reviews/no-such-review/status', { status: 'maybe', version: 1 }), 400],
      [() => send('DELETE', '/api/bookings/no-such-booking'), 404],
    ];
    for (const [request, status] of refusals) await expectStatus(await request(), status);
    // Only the one chair that was added.
    expect(await rowCount()).toBe(before + 1);
  });

  it('a review edited since the admin read it (409) writes nothing', async () => {
    const { email, auth } = await newPatient('editor');
    await addPastVisit(email);
    const first = await postJson('/api/reviews', { review: 'First words of mine.', location: 'Queens' }, auth);
    const { insertedId: id } = await first.json<{ insertedId: string }>();
    await postJson('/api/reviews', { review: 'Second words of mine.', location: 'Queens' }, auth);
    await expectStatus(await send('PUT', `/api/reviews/${id}/status`, { status: 'approved', version: 1 }), 409);
    expect(await entriesAbout(id)).toEqual([]);
  });
});

describe('pages', () => {
  it('pages newest first with an opaque cursor, with no entry twice or missed, and filters by type and actor', async () => {
    const all: AuditEntry[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const result: AuditPage = await page(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(result.entries.length).toBeLessThanOrEqual(7);
      all.push(...result.entries);
      cursor = result.nextCursor;
      if (cursor !== null) expect(result.entries).toHaveLength(7);
    }
    expect(all).toHaveLength(await rowCount());
    expect(new Set(all.map((e) => e._id)).size).toBe(all.length);
    const order = all.map((e) => [e.at, Number(e._id)] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
    expect(order).toEqual(sorted);
    // Without a limit, 50 a page.
    const first = await page();
    expect(first.entries).toEqual(all.slice(0, 50));

    const made = await page('?type=user.made_admin');
    expect(made.entries.length).toBeGreaterThan(0);
    expect(made.entries.every((e) => e.action === 'user.made_admin')).toBe(true);
    const mine = await page(`?actor=${adminId}&limit=100`);
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.every((e) => e.actor.id === adminId)).toBe(true);
    expect((await page('?actor=ADMIN@clinic.test&limit=100')).entries).toEqual(mine.entries);
    expect((await page('?actor=nobody@example.com')).entries).toEqual([]);
    expect(await page('?type=&actor=&cursor=')).toEqual(first);
  });
});
