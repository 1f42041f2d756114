import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { LinkInfo } from '../../contract/links.ts';
import type { RecallList } from '../../contract/recalls.ts';
import { smsSendableAt } from '../src/messages/mail-outbox.ts';
import { clinicInstant } from '../src/platform/clinic-time.ts';
import {
  accessTokenFor,
  addPastVisit,
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
  slotsOf,
  textToClinic,
} from './helpers.ts';

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  // A free treatment: never released unpaid before its reminder goes out.
  await env.DB.prepare(
    "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-consult', 'Free Consultation', 0, 30, 'general-dentistry', 99)",
  ).run();
});

const recallsOf = (patientId: string) =>
  env.DB.prepare(
    'SELECT id, treatment_id, due_date, status, attempts, source FROM recalls WHERE patient_id = ?1 ORDER BY created_at',
  )
    .bind(patientId)
    .all<{ id: string; treatment_id: string; due_date: string; status: string; attempts: number; source: string }>()
    .then((r) => r.results);

const addMonths = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/** The path of the first link in a mail's text whose label starts with `label`. */
function linkIn(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`${label}: `));
  const token = line?.match(/\/l\/(\S+)$/)?.[1];
  if (!token) throw new Error(`no "${label}" link in:\n${text}`);
  return `/api/links/${token}`;
}

/** Ten in the morning, clinic time, `n` days from today: inside SMS hours, on an open day. */
const morningOf = (n: number) => clinicInstant(env, clinicDay(n), 10 * 60);

describe('recall', () => {
  it('is due six months after a cleaning marked attended, and lists on the recall screen', async () => {
    const patient = await newPatient('recalled');
    const visit = await addPastVisit(patient.email, 3);
    expect((await postJson(`/api/bookings/${visit}/attendance`, { status: 'attended' }, admin)).status).toBe(200);
    const [recall, ...more] = await recallsOf(patient.id);
    expect(more).toEqual([]);
    expect(recall).toMatchObject({
      treatment_id: 'teeth-cleaning',
      due_date: addMonths(clinicDay(-3), 6),
      status: 'due',
      source: 'visit',
    });
    const list = await (await call('/api/recalls', { headers: admin })).json<RecallList>();
    expect(list.recalls.find((r) => r._id === recall?.id)).toMatchObject({
      patientName: 'Patient recalled',
      treatment: 'Teeth Cleaning',
      status: 'due',
      attempts: 0,
    });
    const mine = await (await call('/api/users/me/recalls', { headers: patient.auth })).json<{ treatment: string }[]>();
    expect(mine.map((r) => r.treatment)).toEqual(['Teeth Cleaning']);
  });

  it('added by hand 14 days out gets exactly one message when two cron runs overlap, and none once booked', async () => {
    const patient = await newPatient('handadded');
    const due = clinicDay(15);
    const added = await postJson(
      '/api/recalls',
      { patientId: patient.id, treatmentId: 'dental-checkup', dueDate: due },
      admin,
    );
    expect(added.status, await added.clone().text()).toBe(201);
    expect(
      (await postJson('/api/recalls', { patientId: patient.id, treatmentId: 'dental-checkup', dueDate: due }, admin))
        .status,
    ).toBe(409);
    const at = morningOf(1);
    await Promise.all([runCron(at, MAIL), runCron(at, MAIL)]);
    const mails = box.to(patient.email);
    expect(mails.map((m) => m.subject)).toEqual(['Time for your Dental Check-up']);
    expect((await recallsOf(patient.id))[0]).toMatchObject({ status: 'contacted', attempts: 1 });

    // The mail shows three free times near the due date, each a one-tap link to its own time.
    const text = mails[0]?.text ?? '';
    const timeLines = text.split('\n').filter((l) => /\/l\/\S+\?date=\d{4}-\d{2}-\d{2}&slot=/.test(l));
    expect(timeLines).toHaveLength(3);
    // The page behind "Other times" lists them too and books one: the recall is booked.
    const link = linkIn(text, 'Other times');
    const info = await (await call(link)).json<Extract<LinkInfo, { kind: 'recall' }>>();
    expect(info.kind).toBe('recall');
    expect(info.proposals).toHaveLength(3);
    const [first] = info.proposals;
    const booked = await postJson(`${link}/book`, { appointmentDate: first?.appointmentDate, slot: first?.slot });
    expect(booked.status, await booked.clone().text()).toBe(201);
    expect((await recallsOf(patient.id))[0]).toMatchObject({ status: 'booked' });
    // Paid, so the booking is not released before the due date (a release would open the recall again).
    await payWithDemo((await booked.json<{ insertedId: string }>()).insertedId, patient.auth);
    expect((await call(link)).status).toBe(410);

    // The due-date step comes and goes: nothing more is sent.
    await runCron(clinicInstant(env, due, 10 * 60), MAIL);
    expect(box.to(patient.email).filter((m) => m.subject === 'Time for your Dental Check-up')).toHaveLength(1);
    const recallId = (await recallsOf(patient.id))[0]?.id;
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM outbox WHERE dedupe_key LIKE ?1')
      .bind(`recall:${recallId}:%`)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it('sends a family’s recalls due in one month as one message offering a family visit', async () => {
    const parent = await newPatient('recallfamily');
    const added = await postJson(
      '/api/users/me/dependants',
      { name: 'Kid Recall', birthDate: '2015-03-03', relationship: 'child' },
      parent.auth,
    );
    const kid = (await added.json<{ insertedId: string }>()).insertedId;
    const due = clinicDay(15);
    // The kid is due later in the same month: the family's steps count from the earlier date.
    const later = clinicDay(22).slice(0, 7) === due.slice(0, 7) ? clinicDay(22) : due;
    for (const [patientId, dueDate] of [
      [parent.id, due],
      [kid, later],
    ]) {
      const recall = await postJson('/api/recalls', { patientId, treatmentId: 'dental-checkup', dueDate }, admin);
      expect(recall.status, await recall.clone().text()).toBe(201);
    }
    await runCron(morningOf(1), MAIL);
    const mails = box.to(parent.email);
    const month = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
      new Date(`${due}T00:00:00Z`),
    );
    expect(mails.map((m) => m.subject)).toEqual([`Time for your family’s visits in ${month}`]);
    const text = mails[0]?.text ?? '';
    expect(text).toContain('Dear Patient recallfamily,');
    expect(text).toContain('Patient recallfamily: Dental Check-up, due');
    expect(text).toContain('Kid Recall: Dental Check-up, due');
    expect(text).toContain(`Book a family visit: ${env.APP_URL}/appointment?date=${due}&family`);
    // Each person's own one-tap times are there too, and work.
    const kidsLink = linkIn(text, 'Or choose a time for Kid Recall’s Dental Check-up');
    expect((await call(kidsLink)).status).toBe(200);
    expect((await recallsOf(kid))[0]).toMatchObject({ status: 'contacted', attempts: 1 });
    expect((await recallsOf(parent.id))[0]).toMatchObject({ status: 'contacted', attempts: 1 });
    // Another run the same day sends nothing more.
    await runCron(morningOf(1), MAIL);
    expect(box.to(parent.email)).toHaveLength(1);
  });

  it('sends nothing to a patient who turned reminders off, and a recall reopens when its booking is cancelled', async () => {
    const patient = await newPatient('quiet');
    await call('/api/users/me/reminders', {
      method: 'PUT',
      headers: { ...patient.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ remindersOn: false }),
    });
    await postJson(
      '/api/recalls',
      { patientId: patient.id, treatmentId: 'teeth-cleaning', dueDate: clinicDay(2) },
      admin,
    );
    await runCron(morningOf(1), MAIL);
    expect(box.to(patient.email)).toEqual([]);
    const slot = (await slotsOf(clinicDay(4), 'teeth-cleaning'))[0] ?? '';
    const response = await bookAs(patient.auth, { treatment: 'teeth-cleaning', appointmentDate: clinicDay(4), slot });
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect((await recallsOf(patient.id))[0]?.status).toBe('booked');
    expect((await call(`/api/bookings/${insertedId}`, { method: 'DELETE', headers: patient.auth })).status).toBe(200);
    expect((await recallsOf(patient.id))[0]?.status).toBe('contacted');
  });

  it('two desks adding the same recall at once make one (the database keeps one open per patient and treatment)', async () => {
    const patient = await newPatient('raced');
    const add = () =>
      postJson('/api/recalls', { patientId: patient.id, treatmentId: 'teeth-cleaning', dueDate: clinicDay(40) }, admin);
    const answers = await Promise.all([add(), add(), add()]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await recallsOf(patient.id)).toHaveLength(1);
  });

  it('imports a CSV, saying why each refused line was skipped', async () => {
    const patient = await newPatient('imported');
    const csv = `email,treatment,dueDate\n${patient.email},Teeth Cleaning,2027-03-01\nnobody@example.com,Teeth Cleaning,2027-03-01\n${patient.email},Teeth Cleaning,2027-03-02\n${patient.email},Polishing,2027-03-01\n`;
    const response = await postJson('/api/recalls/import', { csv }, admin);
    expect(await response.json()).toEqual({
      acknowledged: true,
      added: 1,
      skipped: [
        { line: 3, reason: 'no patient has the email "nobody@example.com"' },
        { line: 4, reason: 'this patient already has an open recall for this treatment' },
        { line: 5, reason: 'no treatment is called "Polishing"' },
      ],
    });
    expect((await postJson('/api/recalls/import', { csv: 'name,when\nx,y' }, admin)).status).toBe(400);
  });

  it('a treatment’s recall interval is set through PUT /api/treatments/:id', async () => {
    const put = (recallMonths: number | null | string) =>
      call('/api/treatments/fluoride-treatment', {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ recallMonths }),
      });
    expect((await put(3)).status).toBe(200);
    const listed = await (await call('/api/treatments', { headers: admin })).json<
      { _id: string; recallMonths: number | null }[]
    >();
    expect(listed.find((t) => t._id === 'fluoride-treatment')?.recallMonths).toBe(3);
    expect((await put(0)).status).toBe(400);
    expect((await put('six')).status).toBe(400);
    expect((await put(null)).status).toBe(200);
  });
});

/** A booking of `patient` on day `n` with its 24-hour reminder sent: the reminder's mail. */
async function remindedBooking(
  patient: { email: string; auth: Record<string, string> },
  n: number,
  treatment = 'free-consult',
) {
  const date = clinicDay(n);
  const slot = (await slotsOf(date, treatment))[2] ?? '';
  const response = await bookAs(patient.auth, { treatment, appointmentDate: date, slot });
  expect(response.status, await response.clone().text()).toBe(201);
  const { insertedId } = await response.json<{ insertedId: string }>();
  const booking = await (await call(`/api/bookings/${insertedId}`, { headers: patient.auth })).json<{
    startsAt: string;
  }>();
  await runCron(Date.parse(booking.startsAt) - 24 * 3600_000, MAIL);
  const reminder = box.to(patient.email).find((m) => m.subject.startsWith('Reminder'));
  if (!reminder) throw new Error('no reminder');
  return { id: insertedId, reminder };
}

const auditRows = (bookingId: string, action: string) =>
  env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE target_id = ?1 AND action = ?2')
    .bind(bookingId, action)
    .first<{ n: number }>()
    .then((r) => r?.n);

describe('confirmations by link', () => {
  it('20 simultaneous uses of a confirm link confirm once, with one audit row; the schedule shows it', async () => {
    const patient = await newPatient('confirms');
    const { id, reminder } = await remindedBooking(patient, 3);
    const link = linkIn(reminder.text ?? '', "I'm coming");
    const info = await (await call(link)).json<Extract<LinkInfo, { kind: 'booking' }>>();
    expect(info).toMatchObject({
      kind: 'booking',
      action: 'confirm',
      booking: { _id: id, confirmation: 'unconfirmed' },
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`${link}/confirm`, { method: 'POST' })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await auditRows(id, 'booking.confirmed')).toBe(1);
    const schedule = await (await call(`/api/schedule?date=${clinicDay(3)}`, { headers: admin })).json<{
      bookings: { _id: string; confirmation: string }[];
    }>();
    expect(schedule.bookings.find((b) => b._id === id)?.confirmation).toBe('confirmed');
    // A link does what it says only: the confirm link cannot cancel.
    expect((await call(`${link}/cancel`, { method: 'POST' })).status).toBe(400);
  });

  it('a link from before a reschedule changes nothing, and says the visit changed', async () => {
    const patient = await newPatient('moved');
    const { id, reminder } = await remindedBooking(patient, 4);
    const date = clinicDay(5);
    const slot = (await slotsOf(date, 'free-consult'))[4] ?? '';
    const moved = await postJson(`/api/bookings/${id}/reschedule`, { appointmentDate: date, slot }, patient.auth);
    expect(moved.status, await moved.clone().text()).toBe(200);
    for (const label of ["I'm coming", 'Please call me', 'Cancel']) {
      const link = linkIn(reminder.text ?? '', label);
      expect((await call(link)).status).toBe(410);
      const action = { "I'm coming": 'confirm', 'Please call me': 'callback', Cancel: 'cancel' }[label];
      const answer = await call(`${link}/${action}`, { method: 'POST' });
      expect(answer.status).toBe(410);
      expect((await answer.json<{ message: string }>()).message).toMatch(
        /^This visit changed after the message was sent/,
      );
    }
    const mine = await (await call('/api/bookings', { headers: patient.auth })).json<{ slot: string }[]>();
    expect(mine.map((b) => b.slot)).toEqual([slot]);
  });

  it('"Please call me" and "Cancel" work without signing in; a forged or cut link is refused', async () => {
    const patient = await newPatient('calls');
    const { id, reminder } = await remindedBooking(patient, 6);
    expect((await call(`${linkIn(reminder.text ?? '', 'Please call me')}/callback`, { method: 'POST' })).status).toBe(
      200,
    );
    expect(await auditRows(id, 'booking.callback_requested')).toBe(1);
    const cancel = linkIn(reminder.text ?? '', 'Cancel');
    expect((await call(`${cancel.slice(0, -2)}xx/cancel`, { method: 'POST' })).status).toBe(404);
    expect((await call('/api/links/not-a-token')).status).toBe(404);
    expect((await call(`${cancel}/cancel`, { method: 'POST' })).status).toBe(200);
    expect((await call(`/api/bookings/${id}`, { headers: patient.auth })).status).toBe(404);
  });
});

const smsTo = (phone: string) =>
  env.DB.prepare("SELECT body FROM sms_log WHERE direction = 'out' AND phone = ?1 ORDER BY id")
    .bind(phone)
    .all<{ body: string }>()
    .then((r) => r.results.map((row) => row.body));

describe('SMS', () => {
  const setSms = (auth: Record<string, string>, phone: string | null, smsConsent: boolean) =>
    call('/api/users/me/sms', {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone, smsConsent }),
    });

  it('refuses a reply whose signature does not match, changing nothing', async () => {
    const refused = await textToClinic({ From: '+15550100001', Body: 'STOP' }, 'not-the-key');
    expect(refused.status).toBe(403);
    const unsigned = await call('/api/sms/inbound', { method: 'POST', body: 'From=%2B15550100001&Body=STOP' });
    expect(unsigned.status).toBe(403);
  });

  it('reminds by SMS without the treatment; C confirms the latest message’s booking; STOP stops the next one', async () => {
    const patient = await newPatient('texted');
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    expect((await setSms(patient.auth, '+1 (555) 01', true)).status).toBe(400);
    const saved = await setSms(patient.auth, phone.replace(/^\+1555/, '+1 555 '), true);
    expect(await saved.json()).toEqual({ phone, smsConsent: true, stopped: false });
    const { id } = await remindedBooking(patient, 7);
    const [text, ...more] = await smsTo(phone);
    expect(more).toEqual([]);
    expect(text).toMatch(
      /^Smile Dental Clinic: reminder of your visit .* Reply C to confirm, R to be called, X to cancel/,
    );
    expect(text).not.toContain('Consultation');

    const reply = await textToClinic({ From: phone, Body: ' c ' });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('the clinic knows you are coming');
    expect(await auditRows(id, 'booking.confirmed')).toBe(1);

    expect((await textToClinic({ From: phone, Body: 'STOP' })).status).toBe(200);
    expect(await (await call('/api/users/me/sms', { headers: patient.auth })).json()).toEqual({
      phone,
      smsConsent: true,
      stopped: true,
    });
    await remindedBooking(patient, 8);
    expect(await smsTo(phone)).toHaveLength(1);
    expect(box.to(patient.email).filter((m) => m.subject.startsWith('Reminder'))).toHaveLength(2);
  });
});

describe('SMS quiet hours', () => {
  it('an SMS due at night waits for 8:00 on the clinic’s clock; one due by day goes at once', () => {
    const night = clinicInstant(env, clinicDay(2), 22 * 60);
    expect(smsSendableAt(env, night)).toEqual(clinicInstant(env, clinicDay(3), 8 * 60));
    const early = clinicInstant(env, clinicDay(2), 6 * 60);
    expect(smsSendableAt(env, early)).toEqual(clinicInstant(env, clinicDay(2), 8 * 60));
    const day = clinicInstant(env, clinicDay(2), 12 * 60);
    expect(smsSendableAt(env, day)).toEqual(day);
  });
});

describe('the Twilio provider', () => {
  const TWILIO = {
    TWILIO_ACCOUNT_SID: 'AC0123456789abcdef',
    TWILIO_AUTH_TOKEN: 'twilio-token',
    TWILIO_FROM: '+15550109999',
  };

  it('sends a reminder through Twilio’s Messages API, and retries later when Twilio refuses it', async () => {
    const sent: { url: string; auth: string | null; form: URLSearchParams }[] = [];
    let refuse = true;
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.startsWith('https://api.twilio.com/')) return realFetch(input, init);
      sent.push({
        url: request.url,
        auth: request.headers.get('Authorization'),
        form: new URLSearchParams(await request.text()),
      });
      // As Twilio answers: 400 with a code for a number it cannot text, 201 with the message's sid.
      return refuse
        ? Response.json(
            { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
            { status: 400 },
          )
        : Response.json({ sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' }, { status: 201 });
    });
    try {
      const patient = await newPatient('twilio');
      const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      await call('/api/users/me/sms', {
        method: 'PUT',
        headers: { ...patient.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ phone, smsConsent: true }),
      });
      const date = clinicDay(9);
      const slot = (await slotsOf(date, 'free-consult'))[1] ?? '';
      const booked = await bookAs(patient.auth, { treatment: 'free-consult', appointmentDate: date, slot });
      const { insertedId } = await booked.json<{ insertedId: string }>();
      const { startsAt } = await (await call(`/api/bookings/${insertedId}`, { headers: patient.auth })).json<{
        startsAt: string;
      }>();
      const due = Date.parse(startsAt) - 24 * 3600_000;
      await runCron(due, { ...MAIL, ...TWILIO });
      expect(sent).toHaveLength(1);
      expect(sent[0]?.url).toBe('https://api.twilio.com/2010-04-01/Accounts/AC0123456789abcdef/Messages.json');
      expect(sent[0]?.auth).toBe(`Basic ${btoa('AC0123456789abcdef:twilio-token')}`);
      expect(sent[0]?.form.get('To')).toBe(phone);
      expect(sent[0]?.form.get('From')).toBe('+15550109999');
      const row = () =>
        env.DB.prepare("SELECT status, attempts, last_error FROM outbox WHERE channel = 'sms' AND recipient = ?1")
          .bind(phone)
          .first<{ status: string; attempts: number; last_error: string }>();
      expect(await row()).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'the SMS provider refused the message (400, 21211)',
      });
      refuse = false;
      await runCron(due + 5 * 60_000, { ...MAIL, ...TWILIO });
      expect(sent).toHaveLength(2);
      expect(await row()).toMatchObject({ status: 'sent', attempts: 2 });
      const log = await env.DB.prepare(
        "SELECT provider, provider_id FROM sms_log WHERE phone = ?1 AND direction = 'out'",
      )
        .bind(phone)
        .all();
      expect(log.results).toEqual([{ provider: 'twilio', provider_id: 'SM0123456789abcdef0123456789abcdef' }]);
    } finally {
      spy.mockRestore();
    }
  });
});
