import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleDay } from '../../contract/schedule.ts';
import { accessTokenFor, addPastVisit, bearer, call, clinicDay, newPatient, seed } from './helpers.ts';

/**
 * The front desk's writes that may have waited offline (issue 30): a mark of attendance and a note,
 * each carrying the version of the visit the desk saw; refused in plain words, changing nothing,
 * when the visit was moved, cancelled or changed meanwhile; the same write again changes nothing.
 */

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

function send(method: string, path: string, body?: unknown, headers = admin) {
  return call(path, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const row = (id: string) =>
  env.DB.prepare('SELECT status, version, desk_note, moved_to FROM bookings WHERE id = ?1')
    .bind(id)
    .first<{ status: string; version: number; desk_note: string | null; moved_to: string | null }>();

async function entryOf(id: string, date: string) {
  const response = await call(`/api/schedule?date=${date}`, { headers: admin });
  return (await response.json<ScheduleDay>()).bookings.find((b) => b._id === id);
}

describe('marks and notes at the version the front desk saw', () => {
  it('shows the note and the version on the schedule, marks once, and a repeat changes nothing', async () => {
    const { email } = await newPatient('desk');
    const visit = await addPastVisit(email, 1);
    const date = clinicDay(-1);
    expect(await entryOf(visit, date)).toMatchObject({ note: null, version: 1, status: 'active' });

    const noted = await send('PUT', `/api/bookings/${visit}/note`, {
      note: '  Bring the X-rays\nand the form  ',
      version: 1,
    });
    expect(noted.status).toBe(200);
    expect(await noted.json()).toMatchObject({ modifiedCount: 1, message: 'Note saved for Patient desk' });
    expect(await entryOf(visit, date)).toMatchObject({ note: 'Bring the X-rays\nand the form' });

    const changes: number[] = [];
    for (let i = 0; i < 2; i++) {
      const marked = await send('POST', `/api/bookings/${visit}/attendance`, { status: 'attended', version: 1 });
      expect(marked.status).toBe(200);
      const answer = await marked.json<{ modifiedCount: number; message: string }>();
      expect(answer.message).toBe('Patient desk marked as attended');
      changes.push(answer.modifiedCount);
    }
    // The first changes the booking (and what its triggers write: the next recall); the repeat nothing.
    expect(changes[0]).toBeGreaterThan(0);
    expect(changes[1]).toBe(0);
    expect(await row(visit)).toMatchObject({ status: 'attended', version: 1 });
  });

  it('refuses a mark and a note on a visit moved meanwhile, naming where it went, and changes nothing', async () => {
    const { auth } = await newPatient('moved');
    const booked = await send(
      'POST',
      '/api/bookings',
      { treatment: 'Teeth Cleaning', appointmentDate: clinicDay(6), slot: '09.00 AM - 09.30 AM', phone: '555 0100' },
      auth,
    );
    const { insertedId: id } = await booked.json<{ insertedId: string }>();
    const moved = await send('POST', `/api/bookings/${id}/reschedule`, {
      appointmentDate: clinicDay(7),
      slot: '10.00 AM - 10.30 AM',
    });
    expect(moved.status).toBe(200);
    const { insertedId: movedTo } = await moved.json<{ insertedId: string }>();
    // A second move: the refusal names where the visit is now, at the end of its moves.
    const again = await send('POST', `/api/bookings/${movedTo}/reschedule`, {
      appointmentDate: clinicDay(8),
      slot: '11.00 AM - 11.30 AM',
    });
    expect(again.status).toBe(200);
    const where = `${new Date(`${clinicDay(8)}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}, 11.00 AM - 11.30 AM`;

    const mark = await send('POST', `/api/bookings/${id}/attendance`, { status: 'attended', version: 1 });
    expect(mark.status).toBe(409);
    expect(await mark.json()).toEqual({
      acknowledged: false,
      message: `While this waited, the visit was moved to ${where}: nothing was saved. Use the visit at its new time.`,
    });
    const note = await send('PUT', `/api/bookings/${id}/note`, { note: 'Late', version: 1 });
    expect(note.status).toBe(409);
    expect((await note.json<{ message: string }>()).message).toMatch(/^While this waited, the visit was moved to /);
    // Without a version (online, as it always was): the same facts, worded for now.
    const online = await send('POST', `/api/bookings/${id}/attendance`, { status: 'attended' });
    expect((await online.json<{ message: string }>()).message).toBe(
      `This visit was moved to ${where}: nothing was saved. Use the visit at its new time.`,
    );
    expect(await row(id)).toMatchObject({ status: 'moved', desk_note: null });
  });

  it('refuses a note on a visit cancelled since the desk saw it, and one whose version changed', async () => {
    const { auth } = await newPatient('cancelled');
    const booked = await send(
      'POST',
      '/api/bookings',
      { treatment: 'Teeth Cleaning', appointmentDate: clinicDay(9), slot: '09.00 AM - 09.30 AM', phone: '555 0100' },
      auth,
    );
    const { insertedId: id } = await booked.json<{ insertedId: string }>();
    expect((await send('POST', `/api/bookings/${id}/cancel`, { reason: 'Doctor ill' })).status).toBe(200);
    const note = await send('PUT', `/api/bookings/${id}/note`, { note: 'Call back', version: 1 });
    expect(note.status).toBe(409);
    expect((await note.json<{ message: string }>()).message).toBe(
      'While this waited, the visit was cancelled: nothing was saved.',
    );
    expect(await row(id)).toMatchObject({ status: 'cancelled', version: 2, desk_note: null });

    const { email } = await newPatient('bumped');
    const visit = await addPastVisit(email, 2);
    await env.DB.prepare('UPDATE bookings SET version = 3 WHERE id = ?1').bind(visit).run();
    const stale = await send('POST', `/api/bookings/${visit}/attendance`, { status: 'no_show', version: 2 });
    expect(stale.status).toBe(409);
    expect((await stale.json<{ message: string }>()).message).toBe(
      'While this waited, the visit changed: nothing was saved. Look at it again.',
    );
    expect(await row(visit)).toMatchObject({ status: 'active' });
  });

  it.each([
    [{ note: 'x'.repeat(501) }, 'note must be at most 500 characters'],
    [{ note: 'bad\u0007bell' }, 'note must not contain control characters'],
    [{ note: 42 }, 'note must be text'],
    [{ note: 'ok', version: 0 }, undefined],
    [{ note: 'ok', version: 1.5 }, 'version must be a whole number'],
  ])('refuses the note %j with a 400 and changes nothing', async (body, message) => {
    const { email } = await newPatient('bad-note');
    const visit = await addPastVisit(email, 1);
    const response = await send('PUT', `/api/bookings/${visit}/note`, body);
    expect(response.status).toBe(400);
    if (message) expect((await response.json<{ message: string }>()).message).toBe(message);
    expect(await row(visit)).toMatchObject({ desk_note: null });
  });

  it('answers 404 for an unknown booking and 403 for a patient', async () => {
    expect((await send('PUT', '/api/bookings/nope/note', { note: 'x' })).status).toBe(404);
    const { auth, email } = await newPatient('nosy');
    const visit = await addPastVisit(email, 1);
    expect((await send('PUT', `/api/bookings/${visit}/note`, { note: 'x' }, auth)).status).toBe(403);
  });
});
