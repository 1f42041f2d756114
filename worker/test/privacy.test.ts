import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  emulatorIdToken,
  newPatient,
  payWithDemo,
  seed,
  sendJson,
} from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  sendJson(method, path, auth, body);

type Export = {
  fhir: { resourceType: string; type: string; entry: { resource: { resourceType: string; id: string } }[] };
  people: { id: string; name: string }[];
  bookings: { id: string }[];
  payments: { booking_id: string; amount_cents: number }[];
  messages: { kind: string }[];
};

/** A patient with a child, a paid visit of their own, a visit for the child, and an answered form. */
async function familyWithVisits(day: number) {
  const parent = await newPatient('export');
  const added = await send('POST', '/api/users/me/dependants', parent.auth, {
    name: 'Kid Export',
    birthDate: '2015-05-05',
    relationship: 'child',
  });
  const kid = (await added.json<{ insertedId: string }>()).insertedId;
  const own = await bookAs(parent.auth, {
    treatment: 'Cavity Filling',
    appointmentDate: clinicDay(day),
    slot: '09.30 AM - 10.30 AM',
  });
  const ownId = (await own.json<{ insertedId: string }>()).insertedId;
  await payWithDemo(ownId, parent.auth);
  const theirs = await send('POST', '/api/bookings', parent.auth, {
    treatment: 'Dental Check-up',
    appointmentDate: clinicDay(day + 1),
    slot: '09.00 AM - 09.30 AM',
    patientId: kid,
  });
  const kidsId = (await theirs.json<{ insertedId: string }>()).insertedId;
  const form = await send('PUT', `/api/bookings/${kidsId}/forms/medical-history`, parent.auth, {
    answers: { penicillin: false, 'blood-thinners': false, heart: false },
  });
  expect(form.status).toBe(200);
  return { parent, kid, ownId, kidsId };
}

describe('the patient’s own data', () => {
  it('exports every booking, payment and form of the account, as FHIR where it fits, and nothing of anyone else', async () => {
    const { parent, kid, ownId, kidsId } = await familyWithVisits(4);
    const stranger = await familyWithVisits(6);
    const response = await call('/api/users/me/export', { headers: parent.auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = await response.json<Export>();
    expect(data.fhir).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const resources = data.fhir.entry.map((e) => [e.resource.resourceType, e.resource.id]);
    expect(resources).toEqual(
      expect.arrayContaining([
        ['Patient', parent.id],
        ['Patient', kid],
        ['Appointment', ownId],
        ['Appointment', kidsId],
      ]),
    );
    expect(resources.filter(([type]) => type === 'QuestionnaireResponse')).toHaveLength(1);
    expect(data.bookings.map((b) => b.id).sort()).toEqual([ownId, kidsId].sort());
    expect(data.payments.map((p) => [p.booking_id, p.amount_cents])).toEqual([[ownId, 15000]]);
    expect(data.messages.map((m) => m.kind)).toEqual(expect.arrayContaining(['confirmation', 'receipt']));
    // Nothing of the other family's anywhere in the file.
    const text = JSON.stringify(data);
    for (const id of [stranger.parent.id, stranger.kid, stranger.ownId, stranger.kidsId, stranger.parent.email]) {
      expect(text).not.toContain(id);
    }
    // The admin exports it for a patient at the desk, and that read is in the audit trail.
    const byDesk = await call(`/api/users/${parent.id}/export`, { headers: admin });
    expect((await byDesk.json<Export>()).bookings).toHaveLength(2);
    expect((await call(`/api/users/${parent.id}/export`, { headers: stranger.parent.auth })).status).toBe(403);
  });

  it('erases an account: visits cancelled and refunded, no sign-in to the old data, payments and audit kept', async () => {
    const { parent, kid, ownId, kidsId } = await familyWithVisits(8);
    const erased = await send('DELETE', '/api/users/me', parent.auth);
    expect(erased.status, await erased.clone().text()).toBe(200);
    expect((await erased.json<{ cancelled: { _id: string }[] }>()).cancelled.map((c) => c._id).sort()).toEqual(
      [ownId, kidsId].sort(),
    );
    // The old token, and a new sign-in with the same Firebase account, reach none of it.
    expect((await call('/api/bookings', { headers: parent.auth })).status).toBe(401);
    const again = await call(`/api/jwt?email=${encodeURIComponent(parent.email)}`, {
      headers: bearer(emulatorIdToken({ email: parent.email })),
    });
    const fresh = bearer((await again.json<{ accessToken: string }>()).accessToken);
    expect(await (await call('/api/bookings', { headers: fresh })).json()).toEqual([]);
    expect((await call(`/api/bookings/${ownId}`, { headers: fresh })).status).toBe(404);
    // What was erased.
    const people = await env.DB.prepare(
      'SELECT name, email, firebase_uid, birth_date, erased_at IS NOT NULL AS erased FROM users WHERE id IN (?1, ?2) ORDER BY id = ?1',
    )
      .bind(parent.id, kid)
      .all();
    expect(people.results).toEqual([
      {
        name: 'Erased patient',
        email: `erased-${kid}@erased.invalid`,
        firebase_uid: null,
        birth_date: null,
        erased: 1,
      },
      {
        name: 'Erased patient',
        email: `erased-${parent.id}@erased.invalid`,
        firebase_uid: null,
        birth_date: null,
        erased: 1,
      },
    ]);
    const forms = await env.DB.prepare('SELECT count(*) AS n FROM form_responses WHERE patient_id = ?1')
      .bind(kid)
      .first();
    expect(forms).toEqual({ n: 0 });
    // What was kept: the payment (refunded, anonymised) and the audit trail, which says what and why.
    const payment = await env.DB.prepare(
      'SELECT amount_cents, refund_status, email FROM payments WHERE booking_id = ?1',
    )
      .bind(ownId)
      .first();
    expect(payment).toEqual({
      amount_cents: 15000,
      refund_status: 'succeeded',
      email: `erased-${parent.id}@erased.invalid`,
    });
    const audit = await env.DB.prepare("SELECT after FROM audit_log WHERE action = 'user.deleted' AND target_id = ?1")
      .bind(parent.id)
      .first<{ after: string }>();
    const after = JSON.parse(audit?.after ?? '{}');
    expect(after).toMatchObject({ byThemselves: true, familyErased: 1, cancelledBookings: 2 });
    expect(Object.keys(after.kept)).toEqual(['payments', 'auditTrail', 'bookings']);
    expect(after.erased).toContain('form answers');
    const trail = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'form.answered' AND target_id = ?1",
    )
      .bind(kidsId)
      .first();
    expect(trail).toEqual({ n: 1 });
    // An admin's own account is not self-deleted.
    expect((await send('DELETE', '/api/users/me', admin)).status).toBe(409);
  });
});
