import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { slotLabel } from '../../contract/slot-label.ts';
import { bookingRescheduled, remindersOf } from '../src/messages/messages.ts';
import { REMINDER_LEASE_MS } from '../src/messages/reminders.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  pinClock,
  runCron,
  seed,
} from './helpers.ts';

afterEach(() => vi.useRealTimers());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const box = mailbox();
const MAIL = { MAILER: box.mailer };

beforeAll(async () => {
  await seed();
  // A free treatment: never released for non-payment, whatever instant a test runs the cron at.
  await env.DB.prepare(
    "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-consult', 'Free Consultation', 0, 30, 'general-dentistry', 99)",
  ).run();
});

/** A new patient's booking of the free consultation on `appointmentDate` at `slot`: its id and start. */
async function booked(appointmentDate: string, slot: string, bindings: Record<string, string> = {}) {
  const patient = await newPatient('reminded');
  const response = await bookAs(
    patient.auth,
    { treatment: 'free-consult', appointmentDate, slot },
    { ...MAIL, ...bindings },
  );
  expect(response.status, await response.clone().text()).toBe(201);
  const id = (await response.json<{ insertedId: string }>()).insertedId;
  const booking = await (await call(`/api/bookings/${id}`, { headers: patient.auth })).json<{ startsAt: string }>();
  return { patient, id, start: Date.parse(booking.startsAt) };
}

const remindersTo = (email: string) => box.to(email).filter((mail) => mail.subject.startsWith('Reminder'));
const reminderRows = (bookingId: string) =>
  env.DB.prepare(
    'SELECT kind, status, outcome, booking_version FROM reminders WHERE booking_id = ?1 ORDER BY kind, booking_version',
  )
    .bind(bookingId)
    .all<{ kind: string; status: string; outcome: string | null; booking_version: number }>()
    .then((r) => r.results);

describe('the 24-hour reminder', () => {
  it('goes out 24 hours before the appointment, not a second sooner, and once', async () => {
    const { patient, id, start } = await booked(clinicDay(5), '10.00 AM - 10.30 AM');
    await runCron(start - DAY - 1000, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    await runCron(start - DAY, MAIL);
    await runCron(start - DAY + 5 * 60_000, MAIL);
    const [reminder, ...more] = remindersTo(patient.email);
    expect(more).toHaveLength(0);
    expect(reminder?.subject).toMatch(/^Reminder: Free Consultation tomorrow, \w{3} \d{1,2} at 10:00 AM$/);
    expect(reminder?.text).toContain('1200 Harbor Street, Brooklyn, NY 11201');
    expect(reminder?.html).toContain('turn these reminders off');
    // Its medical history not filled yet: the reminder asks for it, with a signed link that opens it
    // without an account (a forms token for this visit at its version).
    expect(reminder?.text).toContain(
      `Before you come, please fill in the form your visit needs (a few minutes, on your phone, no sign-in needed): ${env.APP_URL}/l/f.${id}.1.`,
    );
    const token = /\/l\/(f\.[^\s]+)/.exec(reminder?.text ?? '')?.[1];
    const forms = await (await call(`/api/links/${token}/forms`)).json<{ forms: { _id: string; status: string }[] }>();
    expect(forms.forms).toEqual([expect.objectContaining({ _id: 'medical-history', status: 'missing' })]);
    // The 2-hour one is off unless the clinic turns it on.
    await runCron(start - 2 * HOUR, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(1);
    expect(await reminderRows(id)).toMatchObject([
      { kind: '24h', status: 'sent', outcome: 'queued' },
      { kind: '2h', status: 'skipped', outcome: 'second reminder off' },
    ]);
  });

  it('is not sent for an appointment cancelled one second before it was due', async () => {
    const { patient, id, start } = await booked(clinicDay(5), '11.00 AM - 11.30 AM');
    await runCron(start - DAY - 1000, MAIL);
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: patient.auth }, MAIL)).status).toBe(200);
    await runCron(start - DAY, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    expect(box.to(patient.email).map((m) => m.subject.split(':')[0])).toEqual(['Booked', 'Cancelled']);
    expect((await reminderRows(id))[0]).toMatchObject({ status: 'skipped', outcome: 'booking cancelled or moved' });
  });

  it('is not sent for the old time of an appointment moved one second before it was due; the new time gets its own', async () => {
    const { patient, id, start } = await booked(clinicDay(5), '01.00 PM - 01.30 PM');
    await runCron(start - DAY - 1000, MAIL);
    // The front desk moves it to 3:00 PM the next day, in place: the booking's version goes up.
    const now = new Date(start - DAY - 500);
    const to = { id, appointmentDate: clinicDay(6), startMinute: 15 * 60 };
    await env.DB.batch([
      env.DB.prepare(
        'UPDATE bookings SET appointment_date = ?2, start_minute = ?3, slot = ?4, version = version + 1 WHERE id = ?1',
      ).bind(id, to.appointmentDate, to.startMinute, slotLabel(to.startMinute, 30)),
      ...bookingRescheduled(env, { from: { date: clinicDay(5), startMinute: 13 * 60 }, to }, now),
    ]);
    await runCron(start - DAY, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    const moved = box.to(patient.email).find((m) => m.subject.startsWith('Moved'));
    expect(moved?.text).toMatch(/has moved from \w+day, .* at 1:00 PM .* to \w+day, .* at 3:00 PM/);

    const newStart = start + DAY + 2 * HOUR;
    await runCron(newStart - DAY, MAIL);
    const [reminder, ...more] = remindersTo(patient.email);
    expect(more).toHaveLength(0);
    expect(reminder?.subject).toMatch(/at 3:00 PM$/);
    expect((await reminderRows(id)).filter((r) => r.kind === '24h')).toMatchObject([
      { booking_version: 1, status: 'skipped', outcome: 'booking cancelled or moved' },
      { booking_version: 2, status: 'sent' },
    ]);
  });

  it('is not sent for a booking moved to a new booking (the old one marked moved)', async () => {
    const { patient, id, start } = await booked(clinicDay(5), '02.00 PM - 02.30 PM');
    await env.DB.prepare("UPDATE bookings SET status = 'moved' WHERE id = ?1").bind(id).run();
    await runCron(start - DAY, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
  });

  it('goes out once per booking when two runs overlap, and a third comes late', async () => {
    const bookings = await Promise.all([
      booked(clinicDay(8), '09.00 AM - 09.30 AM'),
      booked(clinicDay(8), '09.30 AM - 10.00 AM'),
      booked(clinicDay(8), '10.00 AM - 10.30 AM'),
    ]);
    const due = Math.max(...bookings.map((b) => b.start)) - DAY;
    await Promise.all([runCron(due, MAIL), runCron(due, MAIL), runCron(due + 60_000, MAIL)]);
    for (const { patient } of bookings) expect(remindersTo(patient.email)).toHaveLength(1);
  });

  it('left claimed by a run that died is sent by a run after the claim ran out, not before', async () => {
    const { patient, id, start } = await booked(clinicDay(9), '11.00 AM - 11.30 AM');
    const due = start - DAY;
    await env.DB.prepare(
      "UPDATE reminders SET status = 'claimed', claim_token = 'dead-run', claimed_until = ?2 WHERE booking_id = ?1 AND kind = '24h'",
    )
      .bind(id, new Date(due + REMINDER_LEASE_MS).toISOString())
      .run();
    await runCron(due + REMINDER_LEASE_MS - 1000, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    await runCron(due + REMINDER_LEASE_MS, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(1);
  });

  it('is skipped when no run saw it until too late (less than 12 hours before)', async () => {
    const { patient, id, start } = await booked(clinicDay(10), '11.00 AM - 11.30 AM');
    await runCron(start - 12 * HOUR, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    expect((await reminderRows(id))[0]).toMatchObject({ kind: '24h', status: 'skipped', outcome: 'too late' });
  });

  it('is not written for a booking made less than 24 hours before: nothing is sent at booking time', async () => {
    const { id, start } = await booked(clinicDay(10), '12.00 PM - 12.30 PM');
    await env.DB.prepare('DELETE FROM reminders WHERE booking_id = ?1').bind(id).run();
    const bookedAt = new Date(start - 3 * HOUR);
    await env.DB.batch(remindersOf(env, { id, appointmentDate: clinicDay(10), startMinute: 12 * 60 }, bookedAt));
    expect((await reminderRows(id)).map((r) => r.kind)).toEqual(['2h']);
  });

  it('follows the clocks: a booking on the day they change is reminded 24 real hours before', async () => {
    pinClock('2027-02-01T15:00:00Z'); // a fixed now before the change, whatever the day the tests run
    // Sunday March 14, 2027, clocks go forward at 2:00 AM: 9:00 AM that day is 13:00 UTC (EDT), and
    // 24 hours before is Saturday 8:00 AM EST, not 9:00 AM.
    const wide = { BOOKING_HORIZON_DAYS: '400' };
    const { patient, start } = await booked('2027-03-14', '09.00 AM - 09.30 AM', wide);
    expect(new Date(start).toISOString()).toBe('2027-03-14T13:00:00.000Z');
    await runCron(Date.parse('2027-03-13T12:59:59Z'), MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    await runCron(Date.parse('2027-03-13T13:00:00Z'), MAIL);
    const [reminder] = remindersTo(patient.email);
    expect(reminder?.text).toContain('Sunday, March 14, 2027 at 9:00 AM Eastern Daylight Time');
  });
});

describe('the 2-hour reminder and the settings', () => {
  it('goes out 2 hours before once the clinic turns it on', async () => {
    const admin = await newPatient('settings-admin');
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1").bind(admin.id).run();
    const adminAuth = bearer(await accessTokenFor(admin.email));
    const put = (body: unknown) =>
      call('/api/messages/settings', {
        method: 'PUT',
        headers: { ...adminAuth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ secondReminder: 'yes' })).status).toBe(400);
    const { patient, start } = await booked(clinicDay(11), '11.00 AM - 11.30 AM');
    const on = await put({ secondReminder: true });
    expect(await on.json()).toMatchObject({
      secondReminder: true,
      offerHoldMinutes: 30,
      clinicName: 'Smile Dental Clinic',
    });
    await runCron(start - DAY, MAIL);
    await runCron(start - 2 * HOUR - 1000, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(1);
    await runCron(start - 2 * HOUR, MAIL);
    expect(remindersTo(patient.email).map((m) => m.subject)).toEqual([
      expect.stringContaining('tomorrow'),
      expect.stringMatching(/^Reminder: Free Consultation in 2 hours, /),
    ]);
    await put({ secondReminder: false });
    expect((await call('/api/messages/settings', { headers: patient.auth })).status).toBe(403);
  });

  it('goes to no patient who turned reminders off in My Appointments', async () => {
    const { patient, id, start } = await booked(clinicDay(12), '11.00 AM - 11.30 AM');
    expect(await (await call('/api/users/me/reminders', { headers: patient.auth })).json()).toEqual({
      remindersOn: true,
    });
    const off = await call('/api/users/me/reminders', {
      method: 'PUT',
      headers: { ...patient.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ remindersOn: false }),
    });
    expect(await off.json()).toEqual({ acknowledged: true, remindersOn: false });
    expect(await (await call('/api/users/me/reminders', { headers: patient.auth })).json()).toEqual({
      remindersOn: false,
    });
    await runCron(start - DAY, MAIL);
    expect(remindersTo(patient.email)).toHaveLength(0);
    expect((await reminderRows(id))[0]).toMatchObject({ status: 'skipped', outcome: 'patient turned reminders off' });
  });
});
