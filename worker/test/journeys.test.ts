/**
 * Where one feature meets another (issue 43), through the API as the patient and the desk meet it;
 * the browser's side is e2e/journeys.spec.ts.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Questionnaire } from '../../contract/forms.ts';
import { askedItems } from '../../contract/questionnaire.ts';
import { signLink } from '../src/messages/link-tokens.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  optionsOn,
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

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body, MAIL);

describe('a closure kept for review', () => {
  it('keeps an unpaid visit through the unpaid sweep, and tells a patient without a phone what to do', async () => {
    const parent = await newPatient('kept');
    const child = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Kept Child',
      birthDate: '2017-03-03',
      relationship: 'child',
    });
    const { insertedId: childId } = await child.json<{ insertedId: string }>();
    // A family visit has no phone on file (the booking page asks for none).
    const day = clinicDay(6);
    const visit = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: day,
      slot: '10.00 AM - 10.30 AM',
      arrangement: 'back-to-back',
      members: [{ treatment: 'Teeth Cleaning' }, { patientId: childId, treatment: 'Dental Check-up' }],
    });
    expect(visit.status, await visit.clone().text()).toBe(201);
    const { insertedIds } = await visit.json<{ insertedIds: string[] }>();
    const kept = await send('POST', '/api/closures', admin, { from: day, to: day, reason: 'Burst pipe', force: true });
    expect(kept.status).toBe(201);

    const [mail] = box.to(parent.email).filter((m) => m.subject.includes('please call the clinic'));
    expect(mail?.text).toContain('We have no phone number for you, so please call us at');
    expect(mail?.text).toContain('Reschedule, in My Appointments');
    const review = await (await call('/api/schedule/review', { headers: admin })).json<
      { _id: string; phone: string; email: string }[]
    >();
    expect(review.filter((entry) => insertedIds.includes(entry._id)).map((e) => [e.phone, e.email])).toEqual([
      ['', parent.email],
      ['', parent.email],
    ]);

    // A day later, and again when the old deadline to pay is long past, the sweep leaves them alone.
    for (const hours of [24, 30, 5 * 24]) await runCron(Date.now() + hours * 3600_000, MAIL);
    const rows = await env.DB.prepare(
      'SELECT status, needs_review, hold_until FROM bookings WHERE id IN (SELECT value FROM json_each(?1))',
    )
      .bind(JSON.stringify(insertedIds))
      .all();
    expect(rows.results).toEqual([
      { status: 'active', needs_review: 1, hold_until: null },
      { status: 'active', needs_review: 1, hold_until: null },
    ]);
    expect(box.to(parent.email).filter((m) => /^(Cancelled|Released)/.test(m.subject))).toEqual([]);
    expect((await postJson(`/api/bookings/${insertedIds[0]}/keep`, {}, admin)).status).toBe(200);
  });
});

describe('a child’s paid visit, cancelled', () => {
  it('shows in the parent’s past visits with its refund and receipt, and Refunds names the parent as the payer', async () => {
    const parent = await newPatient('parent');
    const child = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Leo Whitfield',
      birthDate: '2018-06-01',
      relationship: 'child',
    });
    const { insertedId: childId } = await child.json<{ insertedId: string }>();
    const booked = await send('POST', '/api/bookings', parent.auth, {
      treatment: 'Dental Check-up',
      appointmentDate: clinicDay(9),
      slot: '11.00 AM - 11.30 AM',
      phone: '555 0101',
      patientId: childId,
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    await payWithDemo(insertedId, parent.auth);
    expect((await send('DELETE', `/api/bookings/${insertedId}`, parent.auth)).status).toBe(200);

    const history = await (await call('/api/bookings/history', { headers: parent.auth })).json<{
      bookings: {
        _id: string;
        patientName: string;
        status: string;
        refund: { status: string } | null;
        hasReceipt: boolean;
      }[];
    }>();
    expect(history.bookings.find((b) => b._id === insertedId)).toMatchObject({
      patientName: 'Leo Whitfield',
      status: 'cancelled',
      refund: { status: 'succeeded' },
      hasReceipt: true,
    });
    expect((await call(`/api/bookings/${insertedId}/receipt`, { headers: parent.auth })).status).toBe(200);
    const refunds = await (await call('/api/refunds', { headers: admin })).json<
      { bookingId: string; patientName: string; payer: string; paidWith: string }[]
    >();
    expect(refunds.find((r) => r.bookingId === insertedId)).toMatchObject({
      patientName: 'Leo Whitfield',
      payer: 'Patient parent',
      paidWith: 'Visa ending in 4242',
    });
  });
});

describe('a child’s forms, through the reminder’s link', () => {
  it('ask no adult questions of an 8-year-old, and keep no answer to a question not asked', async () => {
    const parent = await newPatient('forms-parent');
    const child = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Mia Young',
      birthDate: clinicDay(-8 * 366),
      relationship: 'child',
    });
    const { insertedId: childId } = await child.json<{ insertedId: string }>();
    const booked = await send('POST', '/api/bookings', parent.auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: clinicDay(12),
      slot: '02.00 PM - 02.30 PM',
      phone: '555 0102',
      patientId: childId,
    });
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const token = await signLink(env, { action: 'forms', id: insertedId, version: 1, expiresAt });
    const { patientName, forms } = await (await call(`/api/links/${token}/forms`)).json<{
      patientName: string;
      forms: { _id: string; patientAge: number | null; questionnaire: Questionnaire }[];
    }>();
    expect(patientName).toBe('Mia Young');
    const history = forms.find((f) => f._id === 'medical-history');
    expect(history?.patientAge).toBe(8);
    const asked = askedItems(history?.questionnaire as Questionnaire, {}, { age: history?.patientAge ?? null });
    expect(asked.map((item) => item.linkId)).not.toContain('smoking');
    expect(asked.map((item) => item.linkId)).not.toContain('pregnant');
    const saved = await send(
      'PUT',
      `/api/links/${token}/forms/medical-history`,
      {},
      {
        answers: { penicillin: false, 'blood-thinners': false, heart: false, smoking: 'current', pregnant: true },
      },
    );
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await saved.json<{ alerts: string[] }>()).alerts).toEqual([]);
    const stored = await env.DB.prepare('SELECT response FROM form_responses WHERE booking_id = ?1')
      .bind(insertedId)
      .first<{ response: string }>();
    expect(JSON.parse(stored?.response ?? '{}').item.map((i: { linkId: string }) => i.linkId)).toEqual([
      'penicillin',
      'blood-thinners',
      'heart',
    ]);
  });
});

describe('closed is closed', () => {
  it('says why on the booking page’s answer, offers the next open day, and refuses the waitlist', async () => {
    const day = clinicDay(26);
    const closure = await send('POST', '/api/closures', admin, { from: day, to: day, reason: 'Staff training' });
    expect(closure.status).toBe(201);
    const options = await (await call(`/api/appointmentOptions?date=${day}`)).json<
      { slots: string[]; closed: { reason: string; nextOpenDate: string | null } | null }[]
    >();
    expect(options.every((o) => o.slots.length === 0)).toBe(true);
    expect(new Set(options.map((o) => JSON.stringify(o.closed)))).toEqual(
      new Set([JSON.stringify({ reason: 'Staff training', nextOpenDate: clinicDay(27) })]),
    );
    const patient = await newPatient('closed');
    const joined = await send('POST', '/api/waitlist', patient.auth, { treatment: 'Teeth Cleaning', from: day });
    expect(joined.status).toBe(409);
    expect(await joined.json()).toMatchObject({
      message: expect.stringContaining('Staff training. No time can free up then'),
    });
    const week = await (await call(`/api/schedule?from=${clinicDay(25)}&to=${clinicDay(27)}`, { headers: admin })).json<
      { date: string; closed: string | null }[]
    >();
    expect(week.map((d) => d.closed)).toEqual([null, 'Staff training', null]);
  });
});

describe('a family visit that cannot fit', () => {
  it('says which rule fails, and what would work instead', async () => {
    const parent = await newPatient('fitting');
    const child = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Fit Child',
      birthDate: '2015-01-01',
      relationship: 'child',
    });
    const { insertedId: childId } = await child.json<{ insertedId: string }>();
    const members = encodeURIComponent(`me:Teeth Cleaning,${childId}:Dental Check-up`);
    const together = await (
      await call(`/api/appointmentOptions/family?date=${clinicDay(28)}&members=${members}&arrangement=together`, {
        headers: parent.auth,
      })
    ).json<{ slots: string[]; reason: string; suggestion: { arrangement: string; slot: string } }>();
    expect(together).toMatchObject({
      slots: [],
      reason:
        'Teeth Cleaning and Dental Check-up need the same dentist, and only one who does them works that day: they cannot be at the same time',
      suggestion: { arrangement: 'back-to-back', slot: '09.00 AM - 09.30 AM' },
    });
    const backToBack = await (
      await call(`/api/appointmentOptions/family?date=${clinicDay(28)}&members=${members}&arrangement=back-to-back`, {
        headers: parent.auth,
      })
    ).json<{ slots: string[]; spans: string[] }>();
    expect(backToBack.slots[0]).toBe('09.00 AM - 09.30 AM');
    expect(backToBack.spans[0]).toBe('09.00 AM - 10.00 AM');
  });
});

describe('a recall that fits the patient', () => {
  it('proposes three times around the due date, spread over the day; after booking, the link says what was booked', async () => {
    const patient = await newPatient('recalled-spread');
    const due = clinicDay(30);
    const added = await postJson(
      '/api/recalls',
      { patientId: patient.id, treatmentId: 'teeth-cleaning', dueDate: due },
      admin,
    );
    const { insertedId } = await added.json<{ insertedId: string }>();
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const token = await signLink(env, { action: 'book', id: insertedId, version: 0, expiresAt });
    const { proposals } = await (await call(`/api/links/${token}`)).json<{
      proposals: { appointmentDate: string; slot: string; doctor: string | null }[];
    }>();
    expect(proposals).toHaveLength(3);
    expect(new Set(proposals.map((p) => p.appointmentDate)).size).toBe(3);
    for (const p of proposals) expect(p.appointmentDate >= clinicDay(23)).toBe(true);
    const hours = proposals.map((p) => {
      const [time = '', half = ''] = p.slot.split(' - ')[0]?.split(' ') ?? [];
      const hour = (Number(time.split('.')[0]) % 12) + (half === 'PM' ? 12 : 0);
      return hour < 12 ? 'morning' : hour < 15 ? 'midday' : 'evening';
    });
    expect(new Set(hours)).toEqual(new Set(['morning', 'midday', 'evening']));

    const [first] = proposals;
    const booked = await send('POST', `/api/links/${token}/book`, {}, first);
    expect(booked.status, await booked.clone().text()).toBe(201);
    expect(await booked.json()).toMatchObject({
      message: expect.stringMatching(/^Booked: Teeth Cleaning on /),
      doctor: expect.stringMatching(/^Dr\. /),
      freeCancellationUntil: expect.any(String),
    });
    const again = await call(`/api/links/${token}`);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { message: string }).message).toMatch(
      new RegExp(`^This visit is booked: Teeth Cleaning on .+ at ${first?.slot} with Dr\\. `),
    );
  });
});

describe('a schedule change, asked first', () => {
  it('answers a dry run with the bookings it would strand and changes nothing; then makes it when told', async () => {
    const patient = await newPatient('dryrun');
    const day = clinicDay(12);
    const cleaning = (await optionsOn(day)).find((o) => o.name === 'Teeth Cleaning');
    const booked = await bookAs(patient.auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${day}T12:00:00Z`),
      ),
      slot: cleaning?.slots.at(-1) ?? '',
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const closure = { from: day, to: day, reason: 'Boiler repair' };
    const closures = async () =>
      (await (await send('GET', '/api/closures', admin)).json<{ reason: string }[]>()).filter(
        (c) => c.reason === 'Boiler repair',
      );

    const asked = await send('POST', '/api/closures?dryRun=1', admin, closure);
    expect(asked.status).toBe(200);
    const answer = await asked.json<{ dryRun: boolean; acknowledged: boolean; stranded: { email: string }[] }>();
    expect(answer).toMatchObject({ dryRun: true, acknowledged: false });
    expect(answer.stranded.map((s) => s.email)).toContain(patient.email);
    expect(await closures()).toEqual([]);
    // A dry run's flag is checked like any other input.
    expect((await send('POST', '/api/closures?dryRun=yes', admin, closure)).status).toBe(400);
    // A change that strands nothing is answered so too, and nothing changes.
    const quiet = await send('POST', '/api/closures?dryRun=1', admin, {
      ...closure,
      from: '2099-01-05',
      to: '2099-01-05',
    });
    expect(await quiet.json()).toMatchObject({ dryRun: true, stranded: [] });
    expect(await closures()).toEqual([]);

    const made = await send('POST', '/api/closures', admin, { ...closure, bookings: 'keep' });
    expect(made.status).toBe(201);
    expect(await closures()).toHaveLength(1);
  });
});
