/**
 * Nothing leaks between paths (issue 42): each finding of the round, reproduced through the API as
 * it was met, and closed. The unbounded dates are dates.test.ts's, the desk's double payment
 * money-races.test.ts's; the kiosk's device mode is the browser's (forms.spec.ts), its token here.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { signLink } from '../src/messages/link-tokens.ts';
import {
  accessTokenFor,
  addUser,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  payWithDemo,
  postJson,
  runCron,
  seed,
  sendJson,
} from './helpers.ts';

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown, headers = {}) =>
  sendJson(method, path, { ...auth, ...headers }, body, MAIL);

async function booked(
  auth: Record<string, string>,
  days: number,
  treatment = 'Cavity Filling',
  slot = '09.30 AM - 10.30 AM',
) {
  const response = await bookAs(auth, { treatment, appointmentDate: clinicDay(days), slot });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

async function addChild(auth: Record<string, string>, name: string, birthDate = '2016-04-02') {
  const response = await send('POST', '/api/users/me/dependants', auth, { name, birthDate, relationship: 'child' });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const refundOf = (bookingId: string) =>
  env.DB.prepare('SELECT refund_status FROM payments WHERE booking_id = ?1')
    .bind(bookingId)
    .first<{ refund_status: string | null }>();

describe('erasure obeys the cancellation policy', () => {
  it('a patient erasing their account keeps the clinic’s money for a paid visit inside the window, and says so', async () => {
    // A window of four days: a visit in two days is inside it, whatever the hour the test runs.
    expect((await send('PUT', '/api/clinic/policy', admin, { freeCancellationHours: 96 })).status).toBe(200);
    const patient = await newPatient('erasing');
    const tomorrow = await booked(patient.auth, 2, 'Teeth Cleaning', '04.30 PM - 05.00 PM');
    const later = await booked(patient.auth, 9);
    await payWithDemo(tomorrow, patient.auth);
    await payWithDemo(later, patient.auth);
    // The refusal a cancellation gets inside the window…
    expect((await send('DELETE', `/api/bookings/${tomorrow}`, patient.auth)).status).toBe(409);
    // …is what the erasure applies: the visit is cancelled without a refund, named in the answer.
    const erased = await send('DELETE', '/api/users/me', patient.auth);
    expect(erased.status).toBe(200);
    const answer = await erased.json<{ cancelled: { _id: string }[]; notRefunded: { _id: string }[] }>();
    expect(answer.cancelled.map((b) => b._id).sort()).toEqual([tomorrow, later].sort());
    expect(answer.notRefunded.map((b) => b._id)).toEqual([tomorrow]);
    expect(await refundOf(tomorrow)).toEqual({ refund_status: null });
    expect(await refundOf(later)).toEqual({ refund_status: 'succeeded' });
    expect((await send('PUT', '/api/clinic/policy', admin, { freeCancellationHours: 24 })).status).toBe(200);
  });

  it('an admin deleting a patient is the clinic cancelling: every paid visit is refunded', async () => {
    const patient = await newPatient('deleted');
    const tomorrow = await booked(patient.auth, 1, 'Teeth Cleaning', '04.00 PM - 04.30 PM');
    await payWithDemo(tomorrow, patient.auth);
    const erased = await send('DELETE', `/api/users/${patient.id}`, admin);
    expect(await erased.json()).toMatchObject({ notRefunded: [] });
    expect(await refundOf(tomorrow)).toEqual({ refund_status: 'succeeded' });
  });
});

describe('erasure leaves a pseudonym in the audit trail', () => {
  it('and never the name, address, phone, signature or the desk’s notes', async () => {
    const patient = await newPatient('traced');
    const name = 'Patient traced';
    const id = await booked(patient.auth, 12, 'Root Canal Treatment', '01.30 PM - 03.00 PM');
    // A note at the desk, a consent signed with the typed name, and the patient's own answer to a reminder's link.
    const note = await send('PUT', `/api/bookings/${id}/note`, admin, { note: 'Nervous; prefers a call, 555 0199' });
    expect(note.status).toBe(200);
    const signed = await send('PUT', `/api/bookings/${id}/forms/root-canal-consent`, patient.auth, {
      answers: { understood: true, signature: name },
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const token = await signLink(env, { action: 'confirm', id, version: 1, expiresAt });
    expect((await send('POST', `/api/links/${token}/confirm`, {})).status).toBe(200);
    const before = await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE target_id = ?1 OR actor_id = ?2')
      .bind(id, patient.id)
      .first<{ n: number }>();
    expect(before?.n).toBeGreaterThanOrEqual(3);

    expect((await send('DELETE', '/api/users/me', patient.auth)).status).toBe(200);
    const { results } = await env.DB.prepare(
      'SELECT * FROM audit_log WHERE target_id = ?1 OR actor_id = ?2 OR target_id = ?2',
    )
      .bind(id, patient.id)
      .all<Record<string, unknown>>();
    const trail = JSON.stringify(results);
    expect(results.length).toBeGreaterThanOrEqual((before?.n ?? 0) + 1);
    for (const personal of [name, patient.email, 'Nervous', '555 0199']) expect(trail).not.toContain(personal);
    expect(trail).toContain(`Erased patient ${patient.id.slice(0, 8)}`);
    // Still append-only: a redacted row cannot be changed again, nor any row deleted.
    await expect(
      env.DB.prepare("UPDATE audit_log SET redacted_at = 'x', target_name = 'y' WHERE target_id = ?1").bind(id).run(),
    ).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM audit_log WHERE target_id = ?1').bind(id).run()).rejects.toThrow(
      /append-only/,
    );
  });
});

describe('the kiosk’s token', () => {
  it('opens and answers one visit’s forms, and acts on nothing else', async () => {
    const patient = await newPatient('kiosk');
    const id = await booked(patient.auth, 14, 'Root Canal Treatment', '01.30 PM - 03.00 PM');
    const other = await booked(patient.auth, 15, 'Root Canal Treatment', '01.30 PM - 03.00 PM');
    const started = await send('POST', `/api/bookings/${id}/kiosk`, admin);
    expect(started.status).toBe(200);
    const { token } = await started.json<{ token: string }>();
    expect((await send('POST', `/api/bookings/${id}/kiosk`, patient.auth)).status).toBe(403);

    const forms = await (await call(`/api/links/${token}/forms`)).json<{
      patientName: string;
      forms: { _id: string }[];
    }>();
    expect(forms.patientName).toBe('Patient kiosk');
    expect(forms.forms.map((f) => f._id)).toContain('medical-history');
    const saved = await send(
      'PUT',
      `/api/links/${token}/forms/medical-history`,
      {},
      {
        answers: { penicillin: false, 'blood-thinners': false, heart: false },
      },
    );
    expect(saved.status, await saved.clone().text()).toBe(200);
    // The token is a forms link for that visit: no other action, no other visit, no account's data.
    expect((await send('POST', `/api/links/${token}/confirm`, {})).status).toBe(400);
    expect((await call(`/api/bookings/${other}/forms`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
    expect((await call('/api/users', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});

describe('record invitations', () => {
  it('go in the clinic’s words only, once a day for each person and three a day for a family', async () => {
    const parent = await newPatient('inviting');
    const names = ['Buy cheap pills at spam.example', 'Grown Two', 'Grown Three', 'Grown Four'];
    const ids: string[] = [];
    for (const name of names) ids.push(await addChild(parent.auth, name, '1990-01-01'));
    const invite = (i: number, address: string) =>
      send('POST', `/api/users/me/dependants/${ids[i]}/invite`, parent.auth, { email: address });

    expect((await invite(0, 'stranger-1@example.com')).status).toBe(200);
    const [mail] = box.to('stranger-1@example.com');
    expect(mail?.text).not.toContain('spam.example');
    expect(mail?.text).not.toContain('Patient inviting');
    expect(mail?.text).toContain('A family member has kept your dental record');
    // The same person again today, even at another address: refused, and the address unchanged.
    const again = await invite(0, 'stranger-2@example.com');
    expect(again.status).toBe(429);
    expect(box.to('stranger-2@example.com')).toEqual([]);
    const record = await env.DB.prepare('SELECT email FROM users WHERE id = ?1')
      .bind(ids[0])
      .first<{ email: string }>();
    expect(record?.email).toBe('stranger-1@example.com');
    // Three a day for the family.
    expect((await invite(1, 'grown-2@example.com')).status).toBe(200);
    expect((await invite(2, 'grown-3@example.com')).status).toBe(200);
    expect((await invite(3, 'grown-4@example.com')).status).toBe(429);
  });
});

describe('a family’s messages are the account holder’s', () => {
  it('reminders off in the account stop the dependants’ reminders too', async () => {
    const parent = await newPatient('quiet');
    const child = await addChild(parent.auth, 'Quiet Child');
    const response = await bookAs(parent.auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: clinicDay(5),
      slot: '11.00 AM - 11.30 AM',
      patientId: child,
    } as never);
    expect(response.status, await response.clone().text()).toBe(201);
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect((await send('PUT', '/api/users/me/reminders', parent.auth, { remindersOn: false })).status).toBe(200);
    const start = Date.parse(
      (await (await call(`/api/bookings/${insertedId}`, { headers: parent.auth })).json<{ startsAt: string }>())
        .startsAt,
    );
    await runCron(start - 24 * 3600_000 + 60_000, MAIL);
    expect(box.to(parent.email).filter((m) => m.subject.startsWith('Reminder'))).toEqual([]);
  });

  it('a dependant booked through a recall link has the holder’s address, and the holder gets the confirmation', async () => {
    const parent = await newPatient('recalling');
    const child = await addChild(parent.auth, 'Recalled Child');
    const recall = await postJson(
      '/api/recalls',
      { patientId: child, treatmentId: 'teeth-cleaning', dueDate: clinicDay(20) },
      admin,
    );
    expect(recall.status, await recall.clone().text()).toBe(201);
    const { insertedId: recallId } = await recall.json<{ insertedId: string }>();
    const token = await signLink(env, {
      action: 'book',
      id: recallId,
      version: 0,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    const link = await (await call(`/api/links/${token}`)).json<{
      proposals: { appointmentDate: string; slot: string }[];
    }>();
    const [first] = link.proposals;
    const bookedNow = await send('POST', `/api/links/${token}/book`, {}, first);
    expect(bookedNow.status, await bookedNow.clone().text()).toBe(201);
    const { insertedId } = await bookedNow.json<{ insertedId: string }>();
    const row = await env.DB.prepare('SELECT email FROM bookings WHERE id = ?1')
      .bind(insertedId)
      .first<{ email: string }>();
    expect(row?.email).toBe(parent.email);
    expect(box.to(parent.email).some((m) => m.subject.startsWith('Booked: Teeth Cleaning'))).toBe(true);
  });
});

describe('Idempotency-Keys are the sender’s', () => {
  it('another patient’s key neither drops an answer nor returns theirs', async () => {
    const [first, second] = [await newPatient('keyed-a'), await newPatient('keyed-b')];
    const [a, b] = [await booked(first.auth, 16), await booked(second.auth, 19)];
    const key = { 'Idempotency-Key': 'shared-key-0001' };
    const answerA = await send(
      'PUT',
      `/api/bookings/${a}/forms/medical-history`,
      first.auth,
      {
        answers: { penicillin: true, 'blood-thinners': false, heart: false },
      },
      key,
    );
    const answerB = await send(
      'PUT',
      `/api/bookings/${b}/forms/medical-history`,
      second.auth,
      {
        answers: { penicillin: false, 'blood-thinners': false, heart: false },
      },
      key,
    );
    const [savedA, savedB] = [
      await answerA.json<{ insertedId: string; alerts: string[] }>(),
      await answerB.json<{ insertedId: string; alerts: string[] }>(),
    ];
    expect(savedB.insertedId).not.toBe(savedA.insertedId);
    expect(savedB.alerts).toEqual([]);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM form_responses WHERE booking_id = ?1')
      .bind(b)
      .first<{ n: number }>();
    expect(stored?.n).toBe(1);
  });
});

describe('the desk’s notes carry their version', () => {
  it('a note written on an older note is refused, showing the note saved meanwhile', async () => {
    const patient = await newPatient('noted');
    const id = await booked(patient.auth, 17);
    const day = await (await call(`/api/schedule?date=${clinicDay(17)}`, { headers: admin })).json<{
      bookings: { _id: string; version: number; noteVersion: number }[];
    }>();
    const seen = day.bookings.find((b) => b._id === id);
    expect(seen?.noteVersion).toBe(0);
    const online = await send('PUT', `/api/bookings/${id}/note`, admin, {
      note: 'Allergic to latex',
      version: seen?.version,
      noteVersion: 0,
    });
    expect(online.status).toBe(200);
    // The note written offline on version 0 arrives later.
    const stale = await send('PUT', `/api/bookings/${id}/note`, admin, {
      note: 'Bring X-rays',
      version: seen?.version,
      noteVersion: 0,
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({
      message: 'Another note was saved meanwhile: “Allergic to latex”. Yours was not saved; read it and write again.',
      note: 'Allergic to latex',
      noteVersion: 1,
    });
    const kept = await env.DB.prepare('SELECT desk_note FROM bookings WHERE id = ?1')
      .bind(id)
      .first<{ desk_note: string }>();
    expect(kept?.desk_note).toBe('Allergic to latex');
  });
});

describe('the recall import', () => {
  it('adds 1,000 lines within D1’s limit of queries per invocation, and skips what is already open', async () => {
    // Short addresses: 1,000 lines fit the import's 60,000 characters.
    const patients: { email: string }[] = [];
    for (let i = 0; i < 10; i += 1) {
      const email = `i${i}-${crypto.randomUUID().slice(0, 4)}@x.io`;
      await addUser(email, `Imported ${i}`);
      patients.push({ email });
    }
    const treatments = (await env.DB.prepare('SELECT name FROM treatments ORDER BY position').all<{ name: string }>())
      .results;
    const lines = ['email,treatment,dueDate'];
    // 10 patients × 7 treatments are 70 recalls; the other lines repeat them (already open).
    for (let i = 0; i < 1000; i += 1) {
      const patient = patients[i % 10];
      const treatment = treatments[Math.floor(i / 10) % treatments.length];
      lines.push(`${patient?.email},${treatment?.name},${clinicDay(40)}`);
    }
    const response = await send('POST', '/api/recalls/import', admin, { csv: lines.join('\n') });
    expect(response.status).toBe(200);
    const queries = Number(/(\d+) queries/.exec(response.headers.get('Server-Timing') ?? '')?.[1]);
    expect(queries).toBeLessThanOrEqual(50);
    const { added, skipped } = await response.json<{ added: number; skipped: { reason: string }[] }>();
    expect(added).toBe(10 * treatments.length);
    expect(skipped).toHaveLength(1000 - added);
    expect(new Set(skipped.map((s) => s.reason))).toEqual(
      new Set(['this patient already has an open recall for this treatment']),
    );
  });
});

describe('a family visit', () => {
  it('takes each person once, however they are named', async () => {
    const parent = await newPatient('twice');
    const child = await addChild(parent.auth, 'Once Child');
    const visit = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: clinicDay(18),
      slot: '09.00 AM - 09.30 AM',
      arrangement: 'back-to-back',
      members: [{ patientId: parent.id, treatment: 'Teeth Cleaning' }, { treatment: 'Dental Check-up' }],
    });
    expect(visit.status).toBe(400);
    expect(await visit.json()).toMatchObject({ message: 'each person comes once in a family visit' });
    const options = await call(
      `/api/appointmentOptions/family?date=${clinicDay(18)}&members=${encodeURIComponent(`me:Teeth Cleaning,${parent.id}:Dental Check-up`)}`,
      { headers: parent.auth },
    );
    expect(options.status).toBe(400);
    expect(child).toBeTruthy();
  });
});
