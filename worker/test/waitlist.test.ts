import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookAs, call, clinicDay, count, mailbox, newPatient, runCron, seed, slotsOf } from './helpers.ts';

const box = mailbox();
const MAIL = { MAILER: box.mailer };
const SLOT = '09.00 AM - 10.00 AM';

beforeAll(async () => {
  await seed();
  // A treatment with one start a day: its only doctor works 09:00-10:00, so one booking fills the day.
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
type Entry = {
  _id: string;
  treatment: string;
  from: string;
  to: string;
  offer: { _id: string; expiresAt: string } | null;
};

const send = (patient: Patient, method: string, path: string, body?: unknown) =>
  call(
    path,
    {
      method,
      headers: { ...patient.auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    MAIL,
  );

async function book(patient: Patient, date: string): Promise<string> {
  const response = await bookAs(patient.auth, { treatment: 'implant-check', appointmentDate: date, slot: SLOT }, MAIL);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

async function join(patient: Patient, from: string, to?: string): Promise<string> {
  const response = await send(patient, 'POST', '/api/waitlist', {
    treatment: 'implant-check',
    from,
    ...(to ? { to } : {}),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const entriesOf = async (patient: Patient) => (await send(patient, 'GET', '/api/waitlist')).json<Entry[]>();
const offerMails = (patient: Patient) => box.to(patient.email).filter((m) => m.subject.startsWith('A time is free'));
/** The offer id in the link of a patient's latest offer mail. */
const offerLink = (patient: Patient) => /\/offers\/([\w-]+)/.exec(offerMails(patient).at(-1)?.text ?? '')?.[1] ?? '';

describe('joining and leaving the waitlist', () => {
  it('takes a treatment and a date or a range, once, and lists it; leaving takes it off', async () => {
    const patient = await newPatient('joins');
    const bad = async (body: unknown) => {
      const response = await send(patient, 'POST', '/api/waitlist', body);
      return [response.status, (await response.json<{ message: string }>()).message];
    };
    expect(await bad({ treatment: 'implant-check', from: clinicDay(3), to: clinicDay(2) })).toEqual([
      400,
      'to must not be before from',
    ]);
    expect(await bad({ treatment: 'implant-check', from: clinicDay(2), to: clinicDay(16) })).toEqual([
      400,
      'A waitlist entry covers at most 14 days',
    ]);
    expect(await bad({ treatment: 'implant-check', from: clinicDay(-1) })).toEqual([400, 'This date has passed']);
    expect(await bad({ treatment: 'no-such', from: clinicDay(2) })).toEqual([404, 'No such treatment: no-such']);
    expect(await bad({ treatment: 'implant-check', from: 'tomorrow' })).toEqual([
      400,
      'from must be a date like "2026-11-21"',
    ]);

    // A time free on one of the days is to be booked, not waited for.
    expect(await bad({ treatment: 'implant-check', from: clinicDay(20), to: clinicDay(21) })).toEqual([
      409,
      expect.stringMatching(/^Implant Check has free times on \w{3} \d{1,2}, \d{4}; please book one of them$/),
    ]);
    const holder = await newPatient('full-days');
    await book(holder, clinicDay(20));
    await book(holder, clinicDay(21));
    const id = await join(patient, clinicDay(20), clinicDay(21));
    expect(await bad({ treatment: 'Implant Check', from: clinicDay(20), to: clinicDay(21) })).toEqual([
      409,
      expect.stringContaining('You are already on the waitlist for Implant Check on'),
    ]);
    expect(await entriesOf(patient)).toEqual([
      expect.objectContaining({
        _id: id,
        treatment: 'Implant Check',
        from: clinicDay(20),
        to: clinicDay(21),
        offer: null,
      }),
    ]);
    expect((await call('/api/waitlist')).status).toBe(401);

    const other = await newPatient('not-theirs');
    expect((await send(other, 'DELETE', `/api/waitlist/${id}`)).status).toBe(404);
    expect(await (await send(patient, 'DELETE', `/api/waitlist/${id}`)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    });
    expect(await entriesOf(patient)).toEqual([]);
    expect((await send(patient, 'DELETE', `/api/waitlist/${id}`)).status).toBe(404);
  });
});

describe('offers of a freed time', () => {
  it('go to the first in line, hold the time, pass on at expiry, and free it once nobody wants it', async () => {
    const day = clinicDay(3);
    const [holder, first, second, outsider] = await Promise.all([
      newPatient('holder'),
      newPatient('first'),
      newPatient('second'),
      newPatient('outsider'),
    ]);
    const booking = await book(holder, day);
    expect(await slotsOf(day, 'implant-check')).toEqual([]);
    await join(first, day);
    await join(second, day);
    expect(offerMails(first)).toHaveLength(0);

    // The holder cancels: the first in line gets an offer by mail, and the time is held for them.
    expect((await send(holder, 'DELETE', `/api/bookings/${booking}`)).status).toBe(200);
    const [mail] = offerMails(first);
    expect(mail?.subject).toMatch(/^A time is free for you: Implant Check on \w{3} \d{1,2} at 9:00 AM$/);
    expect(mail?.text).toContain(`${env.APP_URL}/offers/`);
    expect(mail?.text).toMatch(/We are holding it for you until \w+day, .* Eastern/);
    expect(offerMails(second)).toHaveLength(0);
    expect(await slotsOf(day, 'implant-check')).toEqual([]);
    expect((await bookAs(outsider.auth, { treatment: 'implant-check', appointmentDate: day, slot: SLOT })).status).toBe(
      409,
    );

    const offerId = offerLink(first);
    const [entry] = await entriesOf(first);
    expect(entry?.offer).toMatchObject({ _id: offerId, slot: SLOT, date: day });
    const offer = await (await send(first, 'GET', `/api/waitlist/offers/${offerId}`)).json<{ expiresAt: string }>();
    expect(offer).toMatchObject({
      treatment: 'Implant Check',
      slot: SLOT,
      status: 'open',
      price: 50,
      doctor: 'Dr Short',
    });
    expect((await send(second, 'GET', `/api/waitlist/offers/${offerId}`)).status).toBe(403);

    // Nobody answers: at expiry the next in line gets it.
    await runCron(Date.parse(offer.expiresAt) - 1000, MAIL);
    expect(offerMails(second)).toHaveLength(0);
    await runCron(Date.parse(offer.expiresAt), MAIL);
    expect(offerMails(second)).toHaveLength(1);
    expect(await (await send(first, 'GET', `/api/waitlist/offers/${offerId}`)).json()).toMatchObject({
      status: 'expired',
    });
    const late = await send(first, 'POST', `/api/waitlist/offers/${offerId}/accept`);
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({
      message: 'This offer has expired; the time went to the next patient in line',
    });

    // The second declines: it was offered to both, so the time is free for anyone again.
    const declined = await send(second, 'POST', `/api/waitlist/offers/${offerLink(second)}/decline`);
    expect(await declined.json()).toEqual({
      acknowledged: true,
      message: 'Offer declined; the time goes to the next patient in line',
    });
    expect(await slotsOf(day, 'implant-check')).toEqual([SLOT]);
    expect(await entriesOf(second)).toMatchObject([{ offer: null }]);
  });

  it('books exactly once when the offer is accepted ten times at once', async () => {
    const day = clinicDay(5);
    const [holder, waiting] = await Promise.all([newPatient('holder2'), newPatient('waiting')]);
    const booking = await book(holder, day);
    await join(waiting, day);
    expect((await send(holder, 'DELETE', `/api/bookings/${booking}`)).status).toBe(200);
    const offerId = offerLink(waiting);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send(waiting, 'POST', `/api/waitlist/offers/${offerId}/accept`)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const booked = await env.DB.prepare(
      "SELECT id, start_minute, doctor_id FROM bookings WHERE user_id = ?1 AND status = 'active'",
    )
      .bind(waiting.id)
      .all();
    expect(booked.results).toEqual([expect.objectContaining({ start_minute: 540, doctor_id: 'dr-short' })]);
    expect(await count(`claims WHERE hold_id = '${offerId}'`)).toBe(0);
    expect(await entriesOf(waiting)).toEqual([]);
    expect(box.to(waiting.email).filter((m) => m.subject.startsWith('Booked'))).toHaveLength(1);
    expect(await (await send(waiting, 'GET', `/api/waitlist/offers/${offerId}`)).json()).toMatchObject({
      status: 'accepted',
      bookingId: booked.results[0]?.id,
    });
  });

  it('are withdrawn when the patient leaves the line, and the time goes to the next', async () => {
    const day = clinicDay(6);
    const [holder, leaving, next] = await Promise.all([
      newPatient('holder3'),
      newPatient('leaving'),
      newPatient('next'),
    ]);
    const booking = await book(holder, day);
    const entry = await join(leaving, day);
    await join(next, day);
    await send(holder, 'DELETE', `/api/bookings/${booking}`);
    const offerId = offerLink(leaving);
    expect((await send(leaving, 'DELETE', `/api/waitlist/${entry}`)).status).toBe(200);
    expect((await send(leaving, 'POST', `/api/waitlist/offers/${offerId}/accept`)).status).toBe(410);
    expect(offerMails(next)).toHaveLength(1);
  });

  it('reach the line when a closure is lifted', async () => {
    const day = clinicDay(7);
    const admin = await newPatient('closure-admin');
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1").bind(admin.id).run();
    // A full day, waited for; then closed, its visit cancelled: a closed day frees nothing, and offers nothing.
    await book(await newPatient('closure-holder'), day);
    const waiting = await newPatient('after-closure');
    await join(waiting, day);
    const closed = await send(admin, 'POST', '/api/closures', {
      from: day,
      to: day,
      reason: 'Training',
      bookings: 'cancel',
    });
    expect(closed.status, await closed.clone().text()).toBe(201);
    const { insertedId } = await closed.json<{ insertedId: string }>();
    expect(offerMails(waiting)).toHaveLength(0);
    // Waiting for the closed day alone is refused: nothing can free up then.
    expect(
      (await send(await newPatient('closed-day'), 'POST', '/api/waitlist', { treatment: 'implant-check', from: day }))
        .status,
    ).toBe(409);
    // Lifted, the day's time is free again, and the line hears of it.
    expect((await send(admin, 'DELETE', `/api/closures/${insertedId}`)).status).toBe(200);
    expect(offerMails(waiting)).toHaveLength(1);
  });
});
