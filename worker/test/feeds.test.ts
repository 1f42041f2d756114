import { env } from 'cloudflare:test';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, bookAs, call, clinicDay, newPatient, seed, sendJson } from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  // A free treatment: never released unpaid while the test runs.
  await env.DB.prepare(
    "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-consult', 'Free Consultation', 0, 30, 'general-dentistry', 99)",
  ).run();
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body);

async function newFeed(auth: Record<string, string>, body: object = {}) {
  const response = await send('POST', '/api/feeds', auth, body);
  expect(response.status, await response.clone().text()).toBe(201);
  const feed = await response.json<{ url: string; webcal: string }>();
  return { ...feed, path: new URL(feed.url).pathname };
}

/** The feed parsed by ical.js: each event's UID, SEQUENCE, STATUS, SUMMARY and start (UTC). */
async function eventsOf(path: string) {
  const response = await call(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await response.text()));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: vevent.getFirstPropertyValue('status'),
      summary: event.summary,
      description: event.description ?? null,
      start: event.startDate.toJSDate().toISOString(),
    };
  });
}

describe('calendar feeds', () => {
  it('lists a patient’s visits: a reschedule keeps the UID with a higher SEQUENCE, a cancellation shows CANCELLED', async () => {
    const patient = await newPatient('feed');
    const feed = await newFeed(patient.auth);
    expect(feed.webcal).toBe(feed.url.replace(/^https?:/, 'webcal:'));
    const first = await bookAs(patient.auth, {
      treatment: 'free-consult',
      appointmentDate: clinicDay(6),
      slot: '09.00 AM - 09.30 AM',
    });
    const id = (await first.json<{ insertedId: string }>()).insertedId;
    const other = await bookAs(patient.auth, {
      treatment: 'free-consult',
      appointmentDate: clinicDay(8),
      slot: '10.00 AM - 10.30 AM',
    });
    const otherId = (await other.json<{ insertedId: string }>()).insertedId;
    const moved = await send('POST', `/api/bookings/${id}/reschedule`, patient.auth, {
      appointmentDate: clinicDay(7),
      slot: '11.00 AM - 11.30 AM',
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await send('DELETE', `/api/bookings/${otherId}`, patient.auth)).status).toBe(200);

    const events = await eventsOf(feed.path);
    expect(events.map((e) => [e.uid, e.sequence, e.status])).toEqual([
      [`${id}@dental-clinic`, 2, 'CONFIRMED'],
      [`${otherId}@dental-clinic`, 2, 'CANCELLED'],
    ]);
    // No treatment or patient name: a phone's calendar may be seen by others.
    expect(events.map((e) => [e.summary, e.description])).toEqual([
      ['Appointment at Smile Dental Clinic', null],
      ['Appointment at Smile Dental Clinic', null],
    ]);
  });

  it('answers 304 to its ETag, and 404 once rotated or revoked', async () => {
    const patient = await newPatient('feedetag');
    const feed = await newFeed(patient.auth);
    const first = await call(feed.path);
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get('Cache-Control')).toBe('private, max-age=300');
    const again = await call(feed.path, { headers: { 'If-None-Match': etag ?? '' } });
    expect([again.status, await again.text()]).toEqual([304, '']);
    // A new booking changes the feed, and its ETag.
    await bookAs(patient.auth, {
      treatment: 'free-consult',
      appointmentDate: clinicDay(9),
      slot: '09.00 AM - 09.30 AM',
    });
    expect((await call(feed.path, { headers: { 'If-None-Match': etag ?? '' } })).status).toBe(200);

    const rotated = await newFeed(patient.auth);
    expect((await call(feed.path)).status).toBe(404);
    expect((await call(rotated.path)).status).toBe(200);
    expect((await send('DELETE', '/api/feeds', patient.auth)).status).toBe(200);
    expect((await call(rotated.path)).status).toBe(404);
    expect((await call('/api/feeds/not-a-token.ics')).status).toBe(404);
    // Only the token's hash is kept.
    const stored = await env.DB.prepare('SELECT token_hash FROM calendar_feeds WHERE owner_id = ?1')
      .bind(patient.id)
      .all();
    expect(stored.results.every((row) => !rotated.url.includes(String(row.token_hash)))).toBe(true);
  });

  it('gives a doctor’s feed to the admin only, without names unless the clinic turns them on', async () => {
    const patient = await newPatient('feeddoctor');
    expect((await send('POST', '/api/feeds', patient.auth, { doctorId: 'seed-dr-sofia-alvarez' })).status).toBe(403);
    expect((await send('POST', '/api/feeds', admin, { doctorId: 'no-such-doctor' })).status).toBe(404);
    const { insertedId } = await (
      await bookAs(patient.auth, {
        treatment: 'free-consult',
        appointmentDate: clinicDay(10),
        slot: '02.00 PM - 02.30 PM',
      })
    ).json<{ insertedId: string }>();
    const doctorId =
      (await env.DB.prepare('SELECT doctor_id FROM bookings WHERE id = ?1')
        .bind(insertedId)
        .first<string>('doctor_id')) ?? '';
    const feed = await newFeed(admin, { doctorId });
    const mine = (events: Awaited<ReturnType<typeof eventsOf>>) =>
      events.find((e) => e.uid === `${insertedId}@dental-clinic`);
    expect(mine(await eventsOf(feed.path))).toMatchObject({
      summary: 'Appointment at Smile Dental Clinic',
      description: null,
    });
    expect((await send('PUT', '/api/messages/settings', admin, { doctorFeedNames: true })).status).toBe(200);
    const named = mine(await eventsOf(feed.path));
    expect(named?.summary).toBe('Free Consultation at Smile Dental Clinic');
    expect(named?.description).toContain('Patient: Patient feeddoctor.');
    await send('PUT', '/api/messages/settings', admin, { doctorFeedNames: false });
  });
});
