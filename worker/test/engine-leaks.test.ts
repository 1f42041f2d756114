/**
 * Each leak found when the product was tried as an attacker and as a careless user (issue 23),
 * reproduced through the API, and closed by the one booking engine.
 */
import { env } from 'cloudflare:test';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { calendarFile } from '../src/booking/calendar.ts';
import { bookingById } from '../src/booking/data/bookings.ts';
import { cancel } from '../src/booking/engine/cancel.ts';
import {
  accessTokenFor,
  addUser,
  bearer,
  bookAs,
  call,
  clinicDay,
  emulatorIdToken,
  mailbox,
  newPatient,
  payWithDemo,
  runCron,
  seed,
} from './helpers.ts';

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  // A treatment only one doctor performs, 09:00-10:00 every day: one booking fills a day.
  await env.DB.batch([
    env.DB.prepare("INSERT INTO specialties (id, name, position) VALUES ('implants', 'Implants', 9)"),
    env.DB.prepare(
      `INSERT INTO doctors (id, name, email, specialty_id, working_days, start_minute, end_minute, image_key)
       VALUES ('dr-short', 'Dr Short', 'short@clinic.test', 'implants', 127, 540, 600, 'doctors/short.png')`,
    ),
    env.DB.prepare(
      "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('implant-check', 'Implant Check', 5000, 60, 'implants', 50)",
    ),
  ]);
});

type Patient = Awaited<ReturnType<typeof newPatient>>;
const IMPLANT = '09.00 AM - 10.00 AM';

const send = (auth: Record<string, string>, method: string, path: string, body?: unknown, bindings = {}) =>
  call(
    path,
    {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    { ...MAIL, ...bindings },
  );

async function booked(patient: Patient, treatment: string, date: string, slot: string): Promise<string> {
  const response = await bookAs(patient.auth, { treatment, appointmentDate: date, slot }, MAIL);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const setPolicy = (body: object) => send(admin, 'PUT', '/api/clinic/policy', body);

/** A patient in line for the implant check on `date`, with an open offer once the cron ran (the day freed by `free`). */
async function offerFor(date: string): Promise<{ waiting: Patient; offerId: string }> {
  const holder = await newPatient('holder');
  const held = await booked(holder, 'implant-check', date, IMPLANT);
  const waiting = await newPatient('waiting');
  const joined = await send(waiting.auth, 'POST', '/api/waitlist', { treatment: 'implant-check', from: date });
  expect(joined.status, await joined.clone().text()).toBe(201);
  expect((await send(holder.auth, 'DELETE', `/api/bookings/${held}`)).status).toBe(200);
  const [entry] = await (await send(waiting.auth, 'GET', '/api/waitlist')).json<{ offer: { _id: string } | null }[]>();
  expect(entry?.offer).not.toBeNull();
  return { waiting, offerId: entry?.offer?._id ?? '' };
}

describe('the leaks of issue 23, closed', () => {
  it('a paid booking moved to a later day keeps the cancellation window of the start it was paid for', async () => {
    // Free cancellation until 10 days before; online rescheduling until a day before.
    expect((await setPolicy({ freeCancellationHours: 240, rescheduleCutoffHours: 24 })).status).toBe(200);
    const patient = await newPatient('mover');
    const id = await booked(patient, 'Cavity Filling', clinicDay(5), '09.30 AM - 10.30 AM');
    await payWithDemo(id, patient.auth);
    const moved = await send(patient.auth, 'POST', `/api/bookings/${id}/reschedule`, {
      appointmentDate: clinicDay(30),
      slot: '09.30 AM - 10.30 AM',
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const { insertedId } = await moved.json<{ insertedId: string }>();
    // The new start is 30 days away, but the payment was for a start 5 days away: inside the window.
    const refused = await send(patient.auth, 'DELETE', `/api/bookings/${insertedId}`);
    expect(refused.status).toBe(409);
    expect((await refused.json<{ message: string }>()).message).toMatch(/please call the clinic/);
    expect(await (await send(admin, 'GET', '/api/refunds')).json()).not.toContainEqual(
      expect.objectContaining({ bookingId: insertedId }),
    );
    expect((await setPolicy({ freeCancellationHours: 24, rescheduleCutoffHours: 24 })).status).toBe(200);
  });

  it('deleting a patient with a paid upcoming visit cancels and refunds it, audits it, and offers the time to the waitlist', async () => {
    const date = clinicDay(6);
    const leaving = await newPatient('leaving');
    const id = await booked(leaving, 'implant-check', date, IMPLANT);
    await payWithDemo(id, leaving.auth);
    const waiting = await newPatient('next-in-line');
    expect((await send(waiting.auth, 'POST', '/api/waitlist', { treatment: 'implant-check', from: date })).status).toBe(
      201,
    );
    const deleted = await send(admin, 'DELETE', `/api/users/${leaving.id}`);
    expect(await deleted.json()).toMatchObject({ acknowledged: true, deletedCount: 1, cancelled: [{ _id: id }] });
    expect(await bookingById(env.DB, id, new Date())).toMatchObject({ status: 'cancelled', cancel_reason: 'admin' });
    const refunds = await (await send(admin, 'GET', '/api/refunds')).json<{ bookingId: string }[]>();
    expect(refunds).toContainEqual(expect.objectContaining({ bookingId: id, refundStatus: 'succeeded' }));
    const audit = await (await send(admin, 'GET', '/api/audit?limit=20')).json<{
      entries: { action: string; target: { id: string } }[];
    }>();
    const actions = audit.entries.filter((e) => e.target.id === id || e.target.id === leaving.id).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['booking.cancelled', 'payment.refund_requested', 'user.deleted']));
    const [entry] = await (await send(waiting.auth, 'GET', '/api/waitlist')).json<{ offer: object | null }[]>();
    expect(entry?.offer).not.toBeNull();
    expect(box.to(leaving.email).map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^Cancelled:/));
  });

  it('a patient waits for at most 5 times, and holds no more open offers than unpaid bookings allowed', async () => {
    const patient = await newPatient('hoarder');
    // Six full days (the implant check has one start a day; a closed day frees nothing, so it cannot be waited for).
    const held: { holder: Patient; id: string }[] = [];
    for (let day = 40; day < 46; day++) {
      const holder = await newPatient('filler');
      held.push({ holder, id: await booked(holder, 'implant-check', clinicDay(day), IMPLANT) });
    }
    const join = (day: number) =>
      send(patient.auth, 'POST', '/api/waitlist', { treatment: 'implant-check', from: clinicDay(day) });
    for (let day = 40; day < 45; day++) expect((await join(day)).status).toBe(201);
    const sixth = await join(45);
    expect(sixth.status).toBe(409);
    expect((await sixth.json<{ message: string }>()).message).toBe(
      'You are already waiting for 5 times; leave one of them before joining the waitlist again',
    );
    // The five days free up: five times, but three is the hold limit.
    for (const { holder, id } of held.slice(0, 5)) {
      expect(
        (await send(holder.auth, 'DELETE', `/api/bookings/${id}`, undefined, { MAX_UNPAID_BOOKINGS: '3' })).status,
      ).toBe(200);
    }
    await runCron(Date.now(), { ...MAIL, MAX_UNPAID_BOOKINGS: '3' });
    const entries = await (await send(patient.auth, 'GET', '/api/waitlist')).json<{ offer: object | null }[]>();
    expect(entries.filter((e) => e.offer)).toHaveLength(3);
    // The sixth day's visit goes too: the tests after this one delete its doctor.
    const [last] = held.slice(5);
    expect((await send(last?.holder.auth ?? {}, 'DELETE', `/api/bookings/${last?.id}`)).status).toBe(200);
  });

  it('a closure added after an offer withdraws it, frees its time and says so; accepting it then is refused', async () => {
    const date = clinicDay(7);
    const { waiting, offerId } = await offerFor(date);
    const closed = await send(admin, 'POST', '/api/closures', { from: date, to: date, reason: 'Power cut' });
    expect(closed.status).toBe(201);
    expect(await closed.json()).toMatchObject({ withdrawnOffers: [{ _id: offerId, email: waiting.email }] });
    const accepted = await send(waiting.auth, 'POST', `/api/waitlist/offers/${offerId}/accept`);
    expect(accepted.status).toBe(410);
    expect(await (await send(waiting.auth, 'GET', '/api/bookings')).json()).toEqual([]);
    expect(box.to(waiting.email).map((mail) => mail.subject)).toContainEqual(
      expect.stringMatching(/^The time offered to you is no longer available/),
    );
  });

  it('a doctor deleted after an offer withdraws it: accepting answers a plain refusal, not a 500', async () => {
    const date = clinicDay(8);
    const { waiting, offerId } = await offerFor(date);
    const deleted = await send(admin, 'DELETE', '/api/doctors/dr-short');
    expect(deleted.status).toBe(200);
    expect((await deleted.json<{ withdrawnOffers: { _id: string }[] }>()).withdrawnOffers).toContainEqual(
      expect.objectContaining({ _id: offerId }),
    );
    const accepted = await send(waiting.auth, 'POST', `/api/waitlist/offers/${offerId}/accept`);
    expect(accepted.status).toBe(410);
    expect(await accepted.json()).toEqual({
      acknowledged: false,
      message: 'This offer was withdrawn: you left the waitlist, or the clinic changed its schedule',
    });
    await env.DB.prepare(
      `INSERT INTO doctors (id, name, email, specialty_id, working_days, start_minute, end_minute, image_key)
       VALUES ('dr-short', 'Dr Short', 'short@clinic.test', 'implants', 127, 540, 600, 'doctors/short.png')`,
    ).run();
  });

  it('a patient cannot move one appointment onto the time of another of their own', async () => {
    const patient = await newPatient('two-places');
    const date = clinicDay(9);
    await booked(patient, 'Teeth Cleaning', date, '09.00 AM - 09.30 AM');
    const whitening = await booked(patient, 'Teeth Whitening', date, '11.00 AM - 12.00 PM');
    const moved = await send(patient.auth, 'POST', `/api/bookings/${whitening}/reschedule`, {
      appointmentDate: date,
      slot: '09.00 AM - 10.00 AM',
    });
    expect(moved.status).toBe(409);
    expect(await moved.json()).toEqual({
      acknowledged: false,
      message: 'You already have another appointment at this time; please choose another one',
    });
    // Nor book a second treatment over the first.
    const overlapping = await bookAs(patient.auth, {
      treatment: 'Orthodontic Consultation',
      appointmentDate: date,
      slot: '09.00 AM - 10.00 AM',
    });
    expect(overlapping.status).toBe(409);
  });

  it('deleting a user with bookings answers deletedCount 1: the user, not the rows that went with them', async () => {
    const patient = await newPatient('counted');
    await booked(patient, 'Teeth Cleaning', clinicDay(10), '10.00 AM - 10.30 AM');
    await booked(patient, 'Dental Check-up', clinicDay(11), '10.00 AM - 10.30 AM');
    const deleted = await send(admin, 'DELETE', `/api/users/${patient.id}`);
    expect(await deleted.json()).toMatchObject({ deletedCount: 1 });
  });

  it('a display name with line breaks from the identity token never reaches the record; calendar text escapes every CR and LF', async () => {
    const token = emulatorIdToken({ email: 'crlf@example.com', name: 'Eve\r\nX-Injected: yes' });
    const response = await call('/api/jwt?email=crlf@example.com', { headers: bearer(token) });
    expect(response.status).toBe(200);
    const row = await env.DB.prepare("SELECT name FROM users WHERE email = 'crlf@example.com'").first();
    expect(row).toEqual({ name: 'crlf' });
    const file = calendarFile(
      env,
      {
        uid: 'u',
        sequence: 1,
        treatment: 'Cleaning',
        date: clinicDay(3),
        startMinute: 540,
        durationMinutes: 30,
        slot: '09.00 AM - 09.30 AM',
        doctor: null,
        patientName: 'A\rB\nC\r\nD',
      },
      { name: 'Clinic', address: 'Street' },
    );
    expect(file).toContain('Patient: A\\nB\\nC\\nD.');
    expect(file.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('a booking kept through a forced closure gets no "see you tomorrow", but one mail that the clinic will call', async () => {
    const patient = await newPatient('stranded');
    const date = clinicDay(2);
    await booked(patient, 'Teeth Cleaning', date, '04.00 PM - 04.30 PM');
    const closed = await send(admin, 'POST', '/api/closures', { from: date, to: date, reason: 'Flood', force: true });
    expect(closed.status).toBe(201);
    expect(box.to(patient.email).map((mail) => mail.subject)).toContainEqual(
      expect.stringMatching(/the clinic will call you$/),
    );
    // The reminders' whole window passes: none goes out.
    const start = Date.parse(`${date}T21:00:00.000Z`);
    for (const at of [start - 24 * 3600_000, start - 12 * 3600_000 - 60_000, start - 2 * 3600_000]) {
      await runCron(at, MAIL);
    }
    expect(box.to(patient.email).map((mail) => mail.subject)).not.toContainEqual(expect.stringMatching(/^Reminder/));
  });

  it('a cancel that changed nothing (the booking moved meanwhile) is a 409, not "Booking cancelled"', async () => {
    const patient = await newPatient('late-cancel');
    const id = await booked(patient, 'Teeth Cleaning', clinicDay(12), '09.00 AM - 09.30 AM');
    const readBefore = await bookingById(env.DB, id, new Date());
    const moved = await send(patient.auth, 'POST', `/api/bookings/${id}/reschedule`, {
      appointmentDate: clinicDay(13),
      slot: '09.00 AM - 09.30 AM',
    });
    expect(moved.status).toBe(200);
    const user = { id: patient.id, email: patient.email, role: 'patient' as const };
    await expect(cancel(env, user, readBefore!)).rejects.toMatchObject({
      status: 409,
      message: 'This booking was changed meanwhile (paid, cancelled or moved); please reload and try again',
    });
  });

  it('the calendar keeps one UID across a reschedule, its SEQUENCE rising, and a cancellation takes the event out', async () => {
    const patient = await newPatient('calendar');
    const id = await booked(patient, 'Teeth Cleaning', clinicDay(14), '09.00 AM - 09.30 AM');
    const moved = await send(patient.auth, 'POST', `/api/bookings/${id}/reschedule`, {
      appointmentDate: clinicDay(15),
      slot: '10.00 AM - 10.30 AM',
    });
    const { insertedId } = await moved.json<{ insertedId: string }>();
    expect((await send(patient.auth, 'DELETE', `/api/bookings/${insertedId}`)).status).toBe(200);
    const files = box.to(patient.email).map((mail) => {
      const [ics] = mail.attachments ?? [];
      return { subject: mail.subject, calendar: ICAL.Component.fromString(String(ics?.content)) };
    });
    const event = (calendar: ICAL.Component) => {
      const vevent = calendar.getFirstSubcomponent('vevent');
      return {
        method: calendar.getFirstPropertyValue('method'),
        uid: vevent?.getFirstPropertyValue('uid'),
        sequence: vevent?.getFirstPropertyValue('sequence'),
        status: vevent?.getFirstPropertyValue('status'),
      };
    };
    expect(files.map((file) => [file.subject.split(':')[0], event(file.calendar)])).toEqual([
      ['Booked', { method: 'PUBLISH', uid: `${id}@dental-clinic`, sequence: 1, status: 'CONFIRMED' }],
      ['Moved', { method: 'PUBLISH', uid: `${id}@dental-clinic`, sequence: 2, status: 'CONFIRMED' }],
      ['Cancelled', { method: 'CANCEL', uid: `${id}@dental-clinic`, sequence: 3, status: 'CANCELLED' }],
    ]);
  });
});

describe('unknown or refused input never reaches the database as a 500', () => {
  it('a user not found, and a display name that is only control characters, fall back plainly', async () => {
    const token = emulatorIdToken({ email: 'x1@example.com', name: '\u0007' });
    expect((await call('/api/jwt?email=x1@example.com', { headers: bearer(token) })).status).toBe(200);
    expect(await env.DB.prepare("SELECT name FROM users WHERE email = 'x1@example.com'").first()).toEqual({
      name: 'x1',
    });
    expect((await send(admin, 'DELETE', `/api/users/${await addUser('gone@example.com', 'Gone')}`)).status).toBe(200);
    expect((await send(admin, 'DELETE', '/api/users/no-such-user')).status).toBe(404);
  });
});
