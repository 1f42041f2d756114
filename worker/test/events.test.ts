import { env } from 'cloudflare:test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { slotLabel } from '../../contract/slot-label.ts';
import { place } from '../src/booking/engine/place.ts';
import { clinicInstant } from '../src/platform/clinic-time.ts';
import type { Env } from '../src/platform/env.ts';
import { relayEvents } from '../src/platform/events.ts';
import {
  accessTokenFor,
  addDoctorAs,
  bearer,
  call,
  clinicDay,
  drainQueue,
  mailbox,
  payWithDemo,
  pinClock,
  postJson,
  recordingQueue,
  runCron,
  seed,
} from './helpers.ts';

/** A seeded pseudo-random source (mulberry32): the same faults on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The database as a consumer that fails `rate` of the time sees it: half of the failures before a
 * batch runs (nothing written), half after it committed (written, but the consumer never hears so
 * and the queue delivers the message again). Reads and single statements pass.
 */
function flakyDatabase(rate: number, random: () => number): { db: D1Database; failures: () => number } {
  let failures = 0;
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property !== 'batch') {
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (statements: D1PreparedStatement[]) => {
        const roll = random();
        if (roll < rate / 2) {
          failures += 1;
          throw new Error('injected fault before the batch');
        }
        const results = await target.batch(statements);
        if (roll < rate) {
          failures += 1;
          throw new Error('injected fault after the batch committed');
        }
        return results;
      };
    },
  });
  return { db, failures: () => failures };
}

const SEED = 20261128;
const count = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .first<{ n: number }>()
  )?.n ?? 0;

let admin: Record<string, string>;
beforeAll(async () => {
  await seed();
});
// Minted on the real clock for each test: one made on a test's pinned clock (7 am) has expired by 7:30 on the real one.
beforeEach(async () => {
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});
afterEach(() => vi.useRealTimers());

describe('domain events', () => {
  it('are append-only: an event can be neither changed nor deleted', async () => {
    const patient = `append-${crypto.randomUUID()}@example.com`;
    await env.DB.prepare(
      "INSERT INTO users (id, email, name, role, email_verified) VALUES (?1, ?2, 'Append Only', 'patient', 1)",
    )
      .bind(crypto.randomUUID(), patient)
      .run();
    const booked = await postJson(
      '/api/bookings',
      { treatment: 'Teeth Cleaning', appointmentDate: clinicDay(5), slot: slotLabel(9 * 60, 30), phone: '555 0100' },
      bearer(await accessTokenFor(patient)),
    );
    expect(booked.status).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const event = await env.DB.prepare('SELECT seq, type, actor FROM events WHERE booking_id = ?1')
      .bind(insertedId)
      .first<{ seq: number; type: string; actor: string }>();
    expect(event).toMatchObject({ type: 'booking.placed', actor: expect.stringMatching(/^patient:/) });
    await expect(
      env.DB.prepare("UPDATE events SET type = 'booking.moved' WHERE seq = ?1").bind(event?.seq).run(),
    ).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM events WHERE seq = ?1').bind(event?.seq).run()).rejects.toThrow(
      /append-only/,
    );
  });

  it(`a busy day: every confirmation, reminder, receipt, cancellation and refund happens once, through 30% faults (seed ${SEED})`, async () => {
    // Today 07:00 on the clinic's clock; the visits on the three days after tomorrow.
    const days = [clinicDay(2), clinicDay(3), clinicDay(4)] as const;
    const [first, second] = days;
    pinClock(clinicInstant(env, clinicDay(0), 7 * 60).toISOString());
    // Signed in on the pinned clock: before 7 am the token of the real one would have expired by then.
    admin = bearer(await accessTokenFor('admin@clinic.test'));
    // Capacity of a busy practice: eight more general dentists and eight more chairs.
    for (let i = 0; i < 8; i++) {
      await addDoctorAs(admin, {
        name: `Dr. Busy ${i}`,
        email: `busy${i}@clinic.test`,
        specialty: 'General Dentistry',
      });
      expect((await postJson('/api/chairs', { name: `Busy chair ${i}` }, admin)).status).toBe(201);
    }
    // 384 patients, each booking a cleaning: 16 starts a day, eight at each start, on three days.
    const random = seeded(SEED);
    const patients = Array.from({ length: 384 }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `busy-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`,
      name: `Busy Patient ${i}`,
    }));
    for (let at = 0; at < patients.length; at += 50) {
      await env.DB.batch(
        patients
          .slice(at, at + 50)
          .map((p) =>
            env.DB.prepare(
              "INSERT INTO users (id, email, name, role, email_verified) VALUES (?1, ?2, ?3, 'patient', 1)",
            ).bind(p.id, p.email, p.name),
          ),
      );
    }
    const booked: { patient: (typeof patients)[number]; id: string; day: string }[] = [];
    for (const [i, patient] of patients.entries()) {
      const day = days[Math.floor(i / 128)] ?? first;
      const start = 9 * 60 + 30 * (i % 16);
      const { id } = await place(
        env,
        patient,
        { treatment: 'teeth-cleaning', appointmentDate: day, slot: slotLabel(start, 30), phone: '' },
        { payAtClinic: day === first },
      );
      booked.push({ patient, id, day });
    }
    // 60 of the second day's visits are paid online (the rest wait for payment at the desk or online).
    const paid = booked.filter((b) => b.day === second).slice(0, 60);
    const box = mailbox();
    const queue = recordingQueue();
    const flaky = flakyDatabase(0.3, random);
    const consumers: Env = { ...env, DB: flaky.db, MAILER: box.mailer, EVENTS: queue.binding };
    const quiet: Partial<Env> = { MAILER: box.mailer, EVENTS: queue.binding };
    for (const { patient, id } of paid) {
      await payWithDemo(id, bearer(await accessTokenFor(patient.email)), undefined, quiet);
    }
    // The Worker hands the day's events to the queue; its consumers fail 30% of the time.
    await relayEvents({ ...env, EVENTS: queue.binding }, new Date());
    await drainQueue(queue, consumers);
    // The evening before the first day: its reminders, and the release of the unpaid visits of the
    // other days (their hold ended this morning), through the same faults.
    const evening = clinicInstant(env, clinicDay(1), 20 * 60);
    await runCron(evening, { MAILER: box.mailer, EVENTS: queue.binding });
    await drainQueue(queue, consumers);
    // A closure of the second day cancels its 60 visits left, all paid, refunding them.
    const closed = await call(
      '/api/closures',
      {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ from: second, to: second, reason: 'A burst pipe', bookings: 'cancel' }),
      },
      quiet,
    );
    expect(closed.status, await closed.clone().text()).toBe(201);
    expect((await closed.json<{ cancelled: unknown[] }>()).cancelled).toHaveLength(60);
    await drainQueue(queue, consumers);
    // Whatever the faults left claimed and unsent (an event appended by a consumer whose own hand-over
    // failed), the next cron runs hand over again, every five minutes as the Cron Trigger does.
    for (const minutes of [10, 15, 20]) {
      await runCron(new Date(evening.getTime() + minutes * 60_000), { MAILER: box.mailer, EVENTS: queue.binding });
      await drainQueue(queue, consumers);
    }
    expect(flaky.failures(), `${queue.deliveries} queue batches`).toBeGreaterThan(100);
    expect(queue.dead).toEqual([]);

    const kinds = (email: string) =>
      box
        .to(email)
        .map((mail) => String(mail.subject).split(':')[0])
        .sort();
    for (const { patient, day } of booked) {
      const wasPaid = paid.some((p) => p.patient.id === patient.id);
      const expected =
        day === first
          ? ['Booked', 'Reminder']
          : wasPaid
            ? ['Booked', 'Cancelled', 'Receipt', 'Refunded']
            : ['Booked', 'Released'];
      expect({ patient: patient.name, mails: kinds(patient.email) }).toEqual({
        patient: patient.name,
        mails: expected,
      });
    }
    // Each paid visit refunded once, asked once.
    expect(
      await count(
        `SELECT count(*) AS n FROM payments p JOIN bookings b ON b.id = p.booking_id
         WHERE b.appointment_date = ?1 AND p.refund_status = 'succeeded'`,
        second,
      ),
    ).toBe(60);
    expect(
      await count(
        `SELECT count(*) AS n FROM audit_log l JOIN bookings b ON b.id = l.target_id
         WHERE b.appointment_date = ?1 AND l.action = 'payment.refund_requested'`,
        second,
      ),
    ).toBe(60);
    // Nothing is left waiting, and nothing was delivered twice.
    expect(await count("SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(0);
    expect(await count('SELECT count(*) AS n FROM event_dispatch WHERE sent_at IS NULL')).toBe(0);
    expect(
      await count(
        'SELECT count(*) AS n FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_dispatch d WHERE d.seq = e.seq)',
      ),
    ).toBe(0);
  }, 120_000);

  it('are handed to the queue by the cron when the Worker died between the commit and the hand-over', async () => {
    const box = mailbox();
    const patient = `relay-${crypto.randomUUID()}@example.com`;
    await env.DB.prepare(
      "INSERT INTO users (id, email, name, role, email_verified) VALUES (?1, ?2, 'Relay Me', 'patient', 1)",
    )
      .bind(crypto.randomUUID(), patient)
      .run();
    // The hand-over fails as a Worker killed after the commit would leave it: claimed, never sent.
    const dead = recordingQueue();
    dead.binding.sendBatch = () => Promise.reject(new Error('the Worker was stopped'));
    const booked = await call(
      '/api/bookings',
      {
        method: 'POST',
        headers: { ...bearer(await accessTokenFor(patient)), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          treatment: 'Dental Check-up',
          appointmentDate: clinicDay(6),
          slot: slotLabel(10 * 60, 30),
          phone: '555 0100',
        }),
      },
      { MAILER: box.mailer, EVENTS: dead.binding },
    );
    expect(booked.status).toBe(201);
    expect(box.to(patient)).toEqual([]);
    // A minute later the cron finds the claim never sent, and hands the event over again.
    await runCron(Date.now() + 2 * 60_000, { MAILER: box.mailer });
    expect(box.to(patient).map((mail) => String(mail.subject).split(':')[0])).toEqual(['Booked']);
    await runCron(Date.now() + 10 * 60_000, { MAILER: box.mailer });
    expect(box.to(patient)).toHaveLength(1);
  });

  it('a consumer that keeps failing ends in the dead-letter list, and its replay delivers once', async () => {
    const box = mailbox();
    const patient = `dead-${crypto.randomUUID()}@example.com`;
    await env.DB.prepare(
      "INSERT INTO users (id, email, name, role, email_verified) VALUES (?1, ?2, 'Dead Letter', 'patient', 1)",
    )
      .bind(crypto.randomUUID(), patient)
      .run();
    const queue = recordingQueue();
    const booked = await call(
      '/api/bookings',
      {
        method: 'POST',
        headers: { ...bearer(await accessTokenFor(patient)), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          treatment: 'Dental Check-up',
          appointmentDate: clinicDay(6),
          slot: slotLabel(11 * 60, 30),
          phone: '555 0100',
        }),
      },
      { MAILER: box.mailer, EVENTS: queue.binding },
    );
    expect(booked.status).toBe(201);
    const broken = flakyDatabase(1, () => 0);
    await drainQueue(queue, { ...env, DB: broken.db, MAILER: box.mailer, EVENTS: queue.binding });
    expect(queue.dead).toHaveLength(1);
    expect(box.to(patient)).toEqual([]);
    const listed = await call('/api/events/dead', { headers: admin });
    expect(listed.status).toBe(200);
    const deadEvents = await listed.json<{ seq: number; type: string; attempts: number }[]>();
    expect(deadEvents).toEqual([expect.objectContaining({ type: 'booking.placed', attempts: 11 })]);
    const seq = deadEvents[0]?.seq;
    const replayed = await call(
      `/api/events/dead/${seq}/replay`,
      { method: 'POST', headers: admin },
      { MAILER: box.mailer },
    );
    expect(replayed.status).toBe(200);
    expect(box.to(patient).map((mail) => String(mail.subject).split(':')[0])).toEqual(['Booked']);
    expect(await (await call('/api/events/dead', { headers: admin })).json()).toEqual([]);
    // Only staff replay, and only a dead event's number.
    const patientAuth = bearer(await accessTokenFor(patient));
    expect((await call(`/api/events/dead/${seq}/replay`, { method: 'POST', headers: patientAuth })).status).toBe(403);
    expect((await call('/api/events/dead', { headers: patientAuth })).status).toBe(403);
    for (const wrong of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await call(`/api/events/dead/${wrong}/replay`, { method: 'POST', headers: admin })).status).toBe(404);
    }
    // A second replay of the same event finds nothing dead.
    expect((await call(`/api/events/dead/${seq}/replay`, { method: 'POST', headers: admin })).status).toBe(404);
  });
});
