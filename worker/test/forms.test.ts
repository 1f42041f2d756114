import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BookingForm, FormSummary } from '../../contract/forms.ts';
import type { ScheduleEntry } from '../../contract/schedule.ts';
import { accessTokenFor, bearer, bookAs, call, clinicDay, newPatient, seed, sendJson } from './helpers.ts';

let admin: Record<string, string>;
let day = 3;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown, headers = {}) =>
  sendJson(method, path, { ...auth, ...headers }, body);

/** A new patient's booking of `treatment` on a day of its own (its first slot). */
async function booked(treatment: string) {
  const patient = await newPatient('forms');
  day += 1;
  const date = clinicDay(day);
  const options = await (await call(`/api/appointmentOptions?date=${date}`)).json<{ _id: string; slots: string[] }[]>();
  const slot = options.find((o) => o._id === treatment)?.slots[0];
  const response = await bookAs(patient.auth, { treatment, appointmentDate: date, slot: slot ?? '' });
  expect(response.status, await response.clone().text()).toBe(201);
  return { ...patient, date, bookingId: (await response.json<{ insertedId: string }>()).insertedId };
}

const formsOf = async (bookingId: string, auth: Record<string, string>) => {
  const response = await send('GET', `/api/bookings/${bookingId}/forms`, auth);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<BookingForm[]>();
};

const HISTORY = {
  penicillin: true,
  'blood-thinners': false,
  heart: false,
  medicines: 'Ibuprofen\nVitamin D',
  smoking: 'never',
  'last-visit': '2025-05-02',
};

async function scheduleEntry(date: string, id: string): Promise<ScheduleEntry | undefined> {
  const day = await (await call(`/api/schedule?date=${date}`, { headers: admin })).json<{
    bookings: ScheduleEntry[];
  }>();
  return day.bookings.find((b) => b._id === id);
}

describe('form templates', () => {
  it('lists the seed forms for the admin as FHIR Questionnaires, and to nobody else', async () => {
    const response = await call('/api/forms', { headers: admin });
    const forms = await response.json<FormSummary[]>();
    expect(forms.map((f) => [f._id, f.version, f.renewMonths, f.treatments])).toEqual([
      ['root-canal-consent', 1, null, ['root-canal']],
      ['medical-history', 1, 12, 'all'],
    ]);
    const history = forms.find((f) => f._id === 'medical-history');
    expect(history?.questionnaire).toMatchObject({
      resourceType: 'Questionnaire',
      id: 'medical-history',
      version: '1',
    });
    // First the person's age, which the clinic answers from its record (questions asked from some age depend on it).
    expect(history?.questionnaire.item[0]).toEqual({
      linkId: 'patient-age',
      text: 'Age on the day of the visit',
      type: 'integer',
      required: false,
      readOnly: true,
    });
    expect(history?.questionnaire.item.find((item) => item.linkId === 'pregnant')?.enableWhen).toEqual([
      { question: 'sex', operator: '=', answerCoding: { code: 'female' } },
    ]);
    expect(history?.questionnaire.item[1]).toEqual({
      linkId: 'penicillin',
      text: 'Are you allergic to penicillin?',
      type: 'boolean',
      required: true,
      extension: [
        { url: 'https://smile-dental.example/fhir/StructureDefinition/alert', valueString: 'Penicillin allergy' },
      ],
    });
    expect(history?.items.find((q) => q.linkId === 'smoking')?.options).toHaveLength(3);
    const patient = await newPatient('notadmin');
    expect((await call('/api/forms', { headers: patient.auth })).status).toBe(403);
  });

  it('refuses a template with a choice without options, an alert on text, or an unknown treatment', async () => {
    const base = { title: 'Intake', renewMonths: null, treatments: 'all' };
    const bad = [
      { ...base, items: [{ linkId: 'x', text: 'Pick', type: 'choice' }] },
      { ...base, items: [{ linkId: 'x', text: 'Name', type: 'string', alert: 'Oops' }] },
      {
        ...base,
        items: [
          { linkId: 'x', text: 'A', type: 'string' },
          { linkId: 'x', text: 'B', type: 'string' },
        ],
      },
      { ...base, treatments: ['no-such-treatment'], items: [{ linkId: 'x', text: 'A', type: 'string' }] },
    ];
    for (const body of bad) expect((await send('POST', '/api/forms', admin, body)).status).toBe(400);
    expect((await call('/api/forms', { headers: admin }).then((r) => r.json<unknown[]>())).length).toBe(2);
  });
});

describe('forms before a visit', () => {
  it('a root canal needs the medical history and the consent, both missing; a cleaning only the history', async () => {
    const canal = await booked('root-canal');
    expect((await formsOf(canal.bookingId, canal.auth)).map((f) => [f._id, f.status, f.answers])).toEqual([
      ['medical-history', 'missing', null],
      ['root-canal-consent', 'missing', null],
    ]);
    expect(await scheduleEntry(canal.date, canal.bookingId)).toMatchObject({
      formsComplete: false,
      formsMissing: ['Medical history', 'Consent to root canal treatment'],
      alerts: [],
    });
    const cleaning = await booked('teeth-cleaning');
    expect((await formsOf(cleaning.bookingId, cleaning.auth)).map((f) => f._id)).toEqual(['medical-history']);
  });

  it('saved answers mark the forms filled, put the alert on the schedule, and sign the consent', async () => {
    const canal = await booked('root-canal');
    const saved = await send('PUT', `/api/bookings/${canal.bookingId}/forms/medical-history`, canal.auth, {
      answers: HISTORY,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await saved.json()).toMatchObject({ status: 'filled', alerts: ['Penicillin allergy'] });
    const consent = await send('PUT', `/api/bookings/${canal.bookingId}/forms/root-canal-consent`, canal.auth, {
      answers: { understood: true, signature: '  Pat Forms  ' },
    });
    expect(consent.status, await consent.clone().text()).toBe(200);

    const forms = await formsOf(canal.bookingId, canal.auth);
    expect(forms.map((f) => f.status)).toEqual(['filled', 'filled']);
    expect(forms[0]?.answers).toEqual(HISTORY);
    expect(await scheduleEntry(canal.date, canal.bookingId)).toMatchObject({
      formsComplete: true,
      formsMissing: [],
      alerts: ['Penicillin allergy'],
    });
    // Stored as FHIR QuestionnaireResponses on version 1; the consent with its typed signature and time, audited.
    const rows = await env.DB.prepare(
      'SELECT form_id, version, signed_name, response, created_at FROM form_responses WHERE booking_id = ?1 ORDER BY form_id',
    )
      .bind(canal.bookingId)
      .all<{ form_id: string; version: number; signed_name: string | null; response: string; created_at: string }>();
    const [history, signed] = rows.results;
    expect(JSON.parse(history?.response ?? '{}')).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      questionnaire: 'Questionnaire/medical-history|1',
      status: 'completed',
      subject: { reference: `Patient/${canal.id}` },
      item: expect.arrayContaining([
        { linkId: 'penicillin', text: 'Are you allergic to penicillin?', answer: [{ valueBoolean: true }] },
        { linkId: 'smoking', text: 'Do you smoke?', answer: [{ valueCoding: { code: 'never', display: 'Never' } }] },
        { linkId: 'last-visit', text: 'When did you last see a dentist?', answer: [{ valueDate: '2025-05-02' }] },
      ]),
    });
    expect([signed?.form_id, signed?.version, signed?.signed_name]).toEqual(['root-canal-consent', 1, 'Pat Forms']);
    const audit = await env.DB.prepare(
      "SELECT json_extract(after, '$.signedBy') AS signed, json_extract(after, '$.signedAt') AS at FROM audit_log WHERE action = 'form.answered' AND target_id = ?1 AND json_extract(after, '$.signedBy') IS NOT NULL",
    )
      .bind(canal.bookingId)
      .first<{ signed: string; at: string }>();
    expect(audit).toEqual({ signed: 'Pat Forms', at: signed?.created_at });
    // Answers are never edited in place.
    await expect(
      env.DB.prepare("UPDATE form_responses SET signed_name = 'Someone Else' WHERE booking_id = ?1")
        .bind(canal.bookingId)
        .run(),
    ).rejects.toThrow(/never edited/);
  });

  it('refuses a missing required answer, a wrong type or an unknown question (400, naming it), and someone else (403)', async () => {
    const visit = await booked('teeth-cleaning');
    const path = `/api/bookings/${visit.bookingId}/forms/medical-history`;
    const refusals: [unknown, string][] = [
      [{ ...HISTORY, penicillin: undefined }, 'Please answer “Are you allergic to penicillin?”'],
      [{ ...HISTORY, heart: 'no' }, '“Do you have a heart condition or a pacemaker?” needs yes or no (true or false)'],
      [{ ...HISTORY, 'last-visit': '2025-02-30' }, '“When did you last see a dentist?” needs a real date'],
      [{ ...HISTORY, smoking: 'sometimes' }, '“Do you smoke?” needs one of: never, former, current'],
      [{ ...HISTORY, shoeSize: '42' }, 'This form has no question "shoeSize"'],
      [
        { ...HISTORY, 'other-allergies': 'latex\nnuts' },
        '“Any other allergies (latex, anaesthetics, foods)?” needs one line of text',
      ],
    ];
    for (const [answers, message] of refusals) {
      const response = await send('PUT', path, visit.auth, { answers });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    const stranger = await newPatient('formstranger');
    expect((await send('PUT', path, stranger.auth, { answers: HISTORY })).status).toBe(403);
    expect((await send('GET', `/api/bookings/${visit.bookingId}/forms`, stranger.auth)).status).toBe(403);
    expect(
      (await send('PUT', `/api/bookings/${visit.bookingId}/forms/root-canal-consent`, visit.auth, { answers: {} }))
        .status,
    ).toBe(404);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM form_responses WHERE booking_id = ?1')
      .bind(visit.bookingId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it('stores a form sent twice with one Idempotency-Key once (the phone’s outbox)', async () => {
    const visit = await booked('teeth-cleaning');
    const path = `/api/bookings/${visit.bookingId}/forms/medical-history`;
    const key = { 'Idempotency-Key': `form-${crypto.randomUUID()}` };
    const [first, second] = await Promise.all([
      send('PUT', path, visit.auth, { answers: HISTORY }, key),
      send('PUT', path, visit.auth, { answers: HISTORY }, key),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const ids = [
      (await first.json<{ insertedId: string }>()).insertedId,
      (await second.json<{ insertedId: string }>()).insertedId,
    ];
    expect(ids[0]).toBe(ids[1]);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM form_responses WHERE booking_id = ?1')
      .bind(visit.bookingId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(1);
    // One change, one domain event: the repeat appends none.
    const events = await env.DB.prepare(
      "SELECT type, actor, json_extract(payload, '$.formId') AS form FROM events WHERE booking_id = ?1 AND type = 'booking.form_answered'",
    )
      .bind(visit.bookingId)
      .all();
    expect(events.results).toEqual([
      { type: 'booking.form_answered', actor: expect.stringMatching(/^patient:/), form: 'medical-history' },
    ]);
  });

  it('a new version leaves old answers on the old version, pre-filled; a history over a year old is to renew', async () => {
    const visit = await booked('teeth-cleaning');
    const path = `/api/bookings/${visit.bookingId}/forms/medical-history`;
    expect((await send('PUT', path, visit.auth, { answers: HISTORY })).status).toBe(200);
    const forms = await (await call('/api/forms', { headers: admin })).json<FormSummary[]>();
    const current = forms.find((f) => f._id === 'medical-history');
    const revised = await send('PUT', '/api/forms/medical-history', admin, {
      title: 'Medical history',
      renewMonths: 12,
      treatments: 'all',
      items: [
        ...(current?.items ?? []),
        { linkId: 'diabetes', text: 'Do you have diabetes?', type: 'boolean', alert: 'Diabetes' },
      ],
    });
    expect(revised.status, await revised.clone().text()).toBe(200);
    expect(await revised.json()).toMatchObject({ version: 2 });
    const [form] = await formsOf(visit.bookingId, visit.auth);
    expect(form?.questionnaire.version).toBe('2');
    expect(form?.questionnaire.item.at(-1)?.linkId).toBe('diabetes');
    expect(form?.status).toBe('filled');
    expect(form?.answers).toEqual(HISTORY);
    const stored = await env.DB.prepare('SELECT version FROM form_responses WHERE booking_id = ?1')
      .bind(visit.bookingId)
      .first<{ version: number }>();
    expect(stored?.version).toBe(1);

    // Another patient's history answered 13 months before their visit: expired, its answers offered again.
    const later = await booked('teeth-cleaning');
    const old = new Date(Date.parse(`${later.date}T12:00:00Z`) - 400 * 86_400_000).toISOString();
    await env.DB.prepare(
      `INSERT INTO form_responses (id, form_id, version, patient_id, response, created_at)
       VALUES (?1, 'medical-history', 1, ?2, ?3, ?4)`,
    )
      .bind(
        crypto.randomUUID(),
        later.id,
        JSON.stringify({
          resourceType: 'QuestionnaireResponse',
          item: [{ linkId: 'penicillin', answer: [{ valueBoolean: false }] }],
        }),
        old,
      )
      .run();
    const [renew] = await formsOf(later.bookingId, later.auth);
    expect([renew?.status, renew?.answers, renew?.answeredAt]).toEqual(['expired', { penicillin: false }, old]);
  });
});
