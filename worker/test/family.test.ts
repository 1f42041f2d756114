import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dependant } from '../../contract/family.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  emulatorIdToken,
  mailbox,
  newPatient,
  postJson,
  runCron,
  seed,
  sendJson,
  slotsOf,
} from './helpers.ts';

const box = mailbox();
const MAIL = { MAILER: box.mailer };
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  // A third chair: three people at once need three chairs (and three doctors of their specialties).
  expect((await postJson('/api/chairs', { name: 'Chair 3' }, admin)).status).toBe(201);
});

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown, bindings = {}) =>
  sendJson(method, path, auth, body, { ...MAIL, ...bindings });

async function addDependant(
  auth: Record<string, string>,
  name: string,
  relationship = 'child',
  birthDate = '2016-04-02',
) {
  const response = await send('POST', '/api/users/me/dependants', auth, { name, birthDate, relationship });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const familyBookings = (ids: string[]) =>
  env.DB.prepare(
    "SELECT user_id, patient_name, email, chair_id, start_minute, family_visit_id FROM bookings WHERE user_id IN (SELECT value FROM json_each(?1)) AND status = 'active' ORDER BY start_minute, patient_name",
  )
    .bind(JSON.stringify(ids))
    .all<{
      user_id: string;
      patient_name: string;
      email: string;
      chair_id: string;
      start_minute: number;
      family_visit_id: string | null;
    }>()
    .then((r) => r.results);

describe('dependants', () => {
  it('are added, listed, edited and removed by their account, and by nobody else', async () => {
    const parent = await newPatient('parent');
    const stranger = await newPatient('stranger');
    const id = await addDependant(parent.auth, 'Milo Parent');
    expect(await (await send('GET', '/api/users/me/dependants', parent.auth)).json<Dependant[]>()).toEqual([
      { _id: id, name: 'Milo Parent', birthDate: '2016-04-02', relationship: 'child' },
    ]);
    expect(await (await send('GET', '/api/users/me/dependants', stranger.auth)).json()).toEqual([]);
    const future = await send('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Not Yet',
      birthDate: clinicDay(30),
      relationship: 'child',
    });
    expect(future.status).toBe(400);
    expect(
      (
        await send('POST', '/api/users/me/dependants', parent.auth, {
          name: 'X',
          birthDate: '2010-01-01',
          relationship: 'cousin',
        })
      ).status,
    ).toBe(400);

    expect((await send('PUT', `/api/users/me/dependants/${id}`, stranger.auth, { name: 'Taken' })).status).toBe(404);
    expect((await send('DELETE', `/api/users/me/dependants/${id}`, stranger.auth)).status).toBe(404);
    const edited = await send('PUT', `/api/users/me/dependants/${id}`, parent.auth, { name: 'Milo P.' });
    expect(await edited.json()).toEqual({
      acknowledged: true,
      dependant: { _id: id, name: 'Milo P.', birthDate: '2016-04-02', relationship: 'child' },
    });
    expect((await send('DELETE', `/api/users/me/dependants/${id}`, parent.auth)).status).toBe(200);
    expect(await (await send('GET', '/api/users/me/dependants', parent.auth)).json()).toEqual([]);
  });
});

describe('coming of age', () => {
  it('a dependant of 18 is invited to claim their record; once claimed, it is theirs and the guardian no longer sees it', async () => {
    const parent = await newPatient('elder');
    const young = await addDependant(parent.auth, 'Young Elder', 'child', clinicDay(-17 * 366));
    const tooYoung = await send('POST', `/api/users/me/dependants/${young}/invite`, parent.auth, {
      email: 'young@example.com',
    });
    expect(tooYoung.status).toBe(409);
    expect((await tooYoung.json<{ message: string }>()).message).toMatch(
      /^Young Elder can have their own account from /,
    );

    const grown = await addDependant(parent.auth, 'Grown Elder', 'child', '2000-05-05');
    const date = clinicDay(12);
    const [slot] = await slotsOf(date, 'dental-checkup');
    const booked = await send('POST', '/api/bookings', parent.auth, {
      treatment: 'dental-checkup',
      appointmentDate: date,
      slot,
      patientId: grown,
    });
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const address = `grown-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const stranger = await newPatient('nosy');
    expect(
      (await send('POST', `/api/users/me/dependants/${grown}/invite`, stranger.auth, { email: address })).status,
    ).toBe(404);
    const invited = await send('POST', `/api/users/me/dependants/${grown}/invite`, parent.auth, { email: address });
    expect(invited.status, await invited.clone().text()).toBe(200);
    await runCron(Date.now(), MAIL);
    const [invite] = box.to(address);
    expect(invite?.subject).toBe('Your own account at Smile Dental Clinic');
    expect(invite?.text).toContain('Sign up: ');

    // An unverified sign-up does not claim it; a verified one does.
    const signUp = (verified: boolean) =>
      call('/api/users', {
        method: 'POST',
        headers: {
          ...bearer(emulatorIdToken({ email: address, sub: `uid-${address}`, verified })),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: 'Grown Elder', email: address }),
      });
    expect((await signUp(false)).status).toBe(403);
    expect((await send('GET', '/api/users/me/dependants', parent.auth)).status).toBe(200);
    expect((await signUp(true)).status).toBe(200);
    const own = bearer(await accessTokenFor(address));
    const mine = await (await send('GET', '/api/bookings', own)).json<{ _id: string; email: string }[]>();
    expect(mine.map((b) => [b._id, b.email])).toEqual([[insertedId, address]]);
    const family = await (await send('GET', '/api/users/me/dependants', parent.auth)).json<Dependant[]>();
    expect(family.map((d) => d.name)).toEqual(['Young Elder']);
    expect((await send('GET', `/api/bookings/${insertedId}`, parent.auth)).status).toBe(403);
  });
});

describe('booking for someone', () => {
  it('books for a dependant, listed in My Appointments and mailed to the account; anyone else is refused', async () => {
    const parent = await newPatient('guardian');
    const stranger = await newPatient('other');
    const child = await addDependant(parent.auth, 'Ada Guardian');
    const date = clinicDay(6);
    const [slot] = await slotsOf(date, 'teeth-cleaning');
    const booking = { treatment: 'teeth-cleaning', appointmentDate: date, slot: slot ?? '', phone: '555 0100' };
    const forChild = await send('POST', '/api/bookings', parent.auth, { ...booking, patientId: child });
    expect(forChild.status, await forChild.clone().text()).toBe(201);
    const { insertedId } = await forChild.json<{ insertedId: string }>();
    // The parent may book the same treatment the same day for themselves: one per person.
    expect(
      (
        await send('POST', '/api/bookings', parent.auth, {
          ...booking,
          slot: (await slotsOf(date, 'teeth-cleaning'))[3],
        })
      ).status,
    ).toBe(201);
    expect((await send('POST', '/api/bookings', stranger.auth, { ...booking, patientId: child })).status).toBe(403);

    const mine = await (await send('GET', '/api/bookings', parent.auth)).json<{ _id: string; patientName: string }[]>();
    expect(mine.map((b) => b.patientName).sort()).toEqual(['Ada Guardian', 'Patient guardian']);
    const booked = box.to(parent.email).filter((m) => m.subject.startsWith('Booked'));
    expect(booked).toHaveLength(2);
    // The child's confirmation goes to the parent, naming the child.
    const childMail = booked.find((m) => m.text?.includes('For: Ada Guardian'));
    expect(childMail?.text?.startsWith('Dear Patient guardian,')).toBe(true);
    // The account pays and opens it; the stranger does not.
    expect((await send('GET', `/api/bookings/${insertedId}`, parent.auth)).status).toBe(200);
    expect((await send('GET', `/api/bookings/${insertedId}`, stranger.auth)).status).toBe(403);
    expect((await postJson('/api/create-payment-intent', { bookingId: insertedId }, stranger.auth)).status).toBe(403);
    expect((await postJson('/api/create-payment-intent', { bookingId: insertedId }, parent.auth)).status).toBe(200);
  });

  it('counts the hold limit over the whole account', async () => {
    const parent = await newPatient('limit');
    const kids = [await addDependant(parent.auth, 'Kid One'), await addDependant(parent.auth, 'Kid Two')];
    const date = clinicDay(7);
    const slots = await slotsOf(date, 'fluoride-treatment');
    const LIMIT = { MAX_UNPAID_BOOKINGS: '3' };
    const book = (patientId: string | undefined, slot: string) =>
      send(
        'POST',
        '/api/bookings',
        parent.auth,
        { treatment: 'fluoride-treatment', appointmentDate: date, slot, patientId },
        LIMIT,
      );
    expect((await book(undefined, slots[0] ?? '')).status).toBe(201);
    expect((await book(kids[0], slots[2] ?? '')).status).toBe(201);
    expect((await book(kids[1], slots[4] ?? '')).status).toBe(201);
    const fourth = await send(
      'POST',
      '/api/bookings',
      parent.auth,
      {
        treatment: 'teeth-cleaning',
        appointmentDate: date,
        slot: slots[6],
        patientId: kids[0],
      },
      LIMIT,
    );
    expect(fourth.status).toBe(409);
  });
});

describe('a family visit', () => {
  const THREE = (parent: string, kid: string, partner: string) => [
    { patientId: parent, treatment: 'Teeth Cleaning' },
    { patientId: kid, treatment: 'Teeth Whitening' },
    { patientId: partner, treatment: 'Root Canal Treatment' },
  ];

  it('books three together at one start in three chairs, lists the starts where all fit, and refuses a stranger', async () => {
    const parent = await newPatient('family');
    const kid = await addDependant(parent.auth, 'Kid Family');
    const partner = await addDependant(parent.auth, 'Partner Family', 'partner', '1985-06-01');
    const date = clinicDay(8);
    const members = THREE(parent.id, kid, partner);
    const options = await send(
      'GET',
      `/api/appointmentOptions/family?date=${date}&members=${members.map((m) => `${m.patientId}:${m.treatment}`).join(',')}`,
      parent.auth,
    );
    const { slots } = await options.json<{ slots: string[] }>();
    expect(slots[0]).toBe('09.00 AM - 09.30 AM');
    const booked = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: date,
      slot: slots[0],
      arrangement: 'together',
      members,
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    expect((await booked.json<{ insertedIds: string[] }>()).insertedIds).toHaveLength(3);
    const rows = await familyBookings([parent.id, kid, partner]);
    expect(rows.map((r) => r.start_minute)).toEqual([540, 540, 540]);
    expect(new Set(rows.map((r) => r.chair_id)).size).toBe(3);
    expect(new Set(rows.map((r) => r.family_visit_id)).size).toBe(1);
    expect(rows.every((r) => r.email === parent.email)).toBe(true);
    // The front desk's day marks the members of one family visit.
    const day = await (await call(`/api/schedule?date=${date}`, { headers: admin })).json<{
      bookings: {
        patientName: string;
        familyVisitId: string | null;
        family: { name: string; accountHolder: boolean }[];
      }[];
    }>();
    const marked = day.bookings.filter((b) => b.familyVisitId === rows[0]?.family_visit_id);
    // And each member's card names the rest of the family, the account holder marked.
    expect(marked.find((b) => b.patientName === 'Kid Family')?.family).toEqual([
      { name: 'Patient family', accountHolder: true },
      { name: 'Partner Family', accountHolder: false },
    ]);
    expect(marked.map((b) => b.patientName).sort()).toEqual(['Kid Family', 'Partner Family', 'Patient family']);

    const stranger = await newPatient('intruder');
    const refused = await send('POST', '/api/bookings/family', stranger.auth, {
      appointmentDate: clinicDay(9),
      slot: '09.00 AM - 09.30 AM',
      arrangement: 'together',
      members: THREE(stranger.id, kid, partner),
    });
    expect(refused.status).toBe(403);
  });

  it('books back to back, one after another from the first start', async () => {
    const parent = await newPatient('backtoback');
    const kid = await addDependant(parent.auth, 'Kid Back');
    const booked = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: clinicDay(10),
      slot: '10.00 AM - 10.30 AM',
      arrangement: 'back-to-back',
      // The account holder needs no id: the caller.
      members: [{ treatment: 'Teeth Cleaning' }, { patientId: kid, treatment: 'Dental Check-up' }],
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    // The starts listed for the same family ("me" is the caller) no longer include 10:00.
    const listed = await send(
      'GET',
      `/api/appointmentOptions/family?date=${clinicDay(10)}&arrangement=back-to-back&members=me:teeth-cleaning,${kid}:dental-checkup`,
      parent.auth,
    );
    expect((await listed.json<{ slots: string[] }>()).slots).not.toContain('10.00 AM - 10.30 AM');
    expect((await familyBookings([parent.id, kid])).map((r) => [r.patient_name, r.start_minute])).toEqual([
      ['Patient backtoback', 600],
      ['Kid Back', 630],
    ]);
  });

  it('is refused whole, with nothing stored, when one member’s time is taken, also in a race', async () => {
    const parent = await newPatient('racing');
    const kid = await addDependant(parent.auth, 'Kid Racing');
    const partner = await addDependant(parent.auth, 'Partner Racing', 'partner', '1980-01-01');
    const rival = await newPatient('rival');
    const date = clinicDay(11);
    const visit = {
      appointmentDate: date,
      slot: '02.00 PM - 02.30 PM',
      arrangement: 'together',
      members: THREE(parent.id, kid, partner),
    };
    // The root canal's only doctor is taken at 2 PM first: the whole visit is refused, naming who.
    const taken = await bookAs(rival.auth, {
      treatment: 'Root Canal Treatment',
      appointmentDate: date,
      slot: '01.30 PM - 03.00 PM',
    });
    expect(taken.status).toBe(201);
    const refused = await send('POST', '/api/bookings/family', parent.auth, visit);
    expect(refused.status).toBe(409);
    expect((await refused.json<{ message: string }>()).message).toBe(
      'Partner Racing cannot have Root Canal Treatment then; nothing was booked. Choose another time.',
    );
    expect(await familyBookings([parent.id, kid, partner])).toEqual([]);

    // A race for one member's doctor: the family visit is booked whole, or not at all.
    const raceVisit = { ...visit, slot: '04.00 PM - 04.30 PM' };
    const [family, other] = await Promise.all([
      send('POST', '/api/bookings/family', parent.auth, raceVisit),
      bookAs((await newPatient('racer')).auth, {
        treatment: 'Root Canal Treatment',
        appointmentDate: date,
        slot: '03.30 PM - 05.00 PM',
      }),
    ]);
    const stored = await familyBookings([parent.id, kid, partner]);
    if (family.status === 201) {
      expect(other.status).toBe(409);
      expect(stored).toHaveLength(3);
    } else {
      expect([family.status, other.status]).toEqual([409, 201]);
      expect(stored).toEqual([]);
    }
  });
});

describe('one payment for a family visit', () => {
  it('pays every member at once, a receipt line each; a member’s cancellation gives back their line only', async () => {
    const parent = await newPatient('paying');
    const kid = await addDependant(parent.auth, 'Kid Paying');
    const booked = await send('POST', '/api/bookings/family', parent.auth, {
      appointmentDate: clinicDay(12),
      slot: '11.00 AM - 11.30 AM',
      arrangement: 'back-to-back',
      members: [{ treatment: 'Teeth Cleaning' }, { patientId: kid, treatment: 'Dental Check-up' }],
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const [mine, kids] = (await booked.json<{ insertedIds: [string, string] }>()).insertedIds;
    const familyVisitId = (
      await send('GET', `/api/bookings/${kids}`, parent.auth).then((r) => r.json<{ familyVisitId: string }>())
    ).familyVisitId;

    // Nobody else can pay it, or learn that it exists.
    const stranger = await newPatient('stranger-pay');
    expect((await send('POST', '/api/create-payment-intent', stranger.auth, { familyVisitId })).status).toBe(404);
    // One or the other, never both.
    expect(
      (await send('POST', '/api/create-payment-intent', parent.auth, { familyVisitId, bookingId: mine })).status,
    ).toBe(400);

    const intent = await send('POST', '/api/create-payment-intent', parent.auth, { familyVisitId });
    expect(intent.status, await intent.clone().text()).toBe(200);
    const { clientSecret, amount } = await intent.json<{ clientSecret: string; amount: number }>();
    expect(amount).toBe(80 + 45);
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };
    const confirmed = await send('POST', '/api/demo-payments/confirm', parent.auth, { clientSecret, card });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const { paymentIntent } = await confirmed.json<{ paymentIntent: { id: string; amount: number } }>();
    expect(paymentIntent.amount).toBe(125);
    // Recording it again through POST /api/payments, naming either booking, changes nothing.
    const again = await send('POST', '/api/payments', parent.auth, {
      transactionId: paymentIntent.id,
      bookingId: kids,
    });
    expect(again.status, await again.clone().text()).toBe(200);

    const lines = await env.DB.prepare(
      'SELECT booking_id, amount_cents, intent_id, refund_status FROM payments WHERE intent_id = ?1 ORDER BY amount_cents',
    )
      .bind(paymentIntent.id)
      .all();
    expect(lines.results).toEqual([
      { booking_id: kids, amount_cents: 4500, intent_id: paymentIntent.id, refund_status: null },
      { booking_id: mine, amount_cents: 8000, intent_id: paymentIntent.id, refund_status: null },
    ]);
    const list = await (await send('GET', '/api/bookings', parent.auth)).json<{ _id: string; paid: boolean }[]>();
    expect(list.filter((b) => b._id === mine || b._id === kids).map((b) => b.paid)).toEqual([true, true]);
    // Each member's receipt is their line of the one payment.
    const receipt = await (await send('GET', `/api/bookings/${kids}/receipt`, parent.auth)).json();
    expect(receipt).toMatchObject({ patientName: 'Kid Paying', amount: 45, transactionId: paymentIntent.id });
    expect((await send('POST', '/api/create-payment-intent', parent.auth, { familyVisitId })).status).toBe(409);

    // The kid cannot come: their line ($45) is refunded, the parent's stays paid.
    expect((await send('DELETE', `/api/bookings/${kids}`, parent.auth)).status).toBe(200);
    const after = await env.DB.prepare(
      'SELECT booking_id, refund_status, refund_amount_cents FROM payments WHERE intent_id = ?1 ORDER BY amount_cents',
    )
      .bind(paymentIntent.id)
      .all();
    expect(after.results).toEqual([
      { booking_id: kids, refund_status: 'succeeded', refund_amount_cents: 4500 },
      { booking_id: mine, refund_status: null, refund_amount_cents: null },
    ]);
  });
});

describe('the front desk', () => {
  it('finds the family on the patient’s card and books them a family visit by phone, paid at the clinic', async () => {
    const parent = await newPatient('deskfamily');
    const kid = await addDependant(parent.auth, 'Kid Desk');
    const found = await (await call('/api/users/search?q=deskfamily', { headers: admin })).json<
      { _id: string; family: { _id: string; name: string }[] }[]
    >();
    expect(found.find((p) => p._id === parent.id)?.family).toEqual([{ _id: kid, name: 'Kid Desk' }]);

    const date = clinicDay(13);
    const members = [
      { patientId: parent.id, treatment: 'Teeth Cleaning' },
      { patientId: kid, treatment: 'Cavity Filling' },
    ];
    const query = `date=${date}&arrangement=back-to-back&members=${members.map((m) => `${m.patientId}:${m.treatment}`).join(',')}`;
    // A patient cannot ask for another account's family; the desk can.
    expect(
      (await send('GET', `/api/appointmentOptions/family?${query}&accountId=${parent.id}`, parent.auth)).status,
    ).toBe(403);
    const options = await send('GET', `/api/appointmentOptions/family?${query}&accountId=${parent.id}`, admin);
    const { slots } = await options.json<{ slots: string[] }>();
    expect(slots.length).toBeGreaterThan(0);
    const visit = {
      accountId: parent.id,
      phone: '555-0100',
      appointmentDate: date,
      slot: slots[0],
      arrangement: 'back-to-back',
      members,
    };
    // Only staff book by phone; and only the account's own people.
    expect((await send('POST', '/api/phone-bookings/family', parent.auth, visit)).status).toBe(403);
    const other = await newPatient('deskother');
    const notTheirs = await send('POST', '/api/phone-bookings/family', admin, { ...visit, accountId: other.id });
    expect(notTheirs.status).toBe(403);

    const booked = await send('POST', '/api/phone-bookings/family', admin, visit);
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { insertedIds, message } = await booked.json<{ insertedIds: string[]; message: string }>();
    expect(message).toBe('Family visit booked for Patient deskfamily, Kid Desk');
    const rows = await env.DB.prepare(
      'SELECT hold_until, phone, family_visit_id FROM bookings WHERE id IN (SELECT value FROM json_each(?1))',
    )
      .bind(JSON.stringify(insertedIds))
      .all<{ hold_until: string | null; phone: string; family_visit_id: string }>();
    // Paid at the clinic: nothing is held, so nothing is released unpaid.
    expect(rows.results.map((r) => [r.hold_until, r.phone])).toEqual([
      [null, '555-0100'],
      [null, '555-0100'],
    ]);
    expect(new Set(rows.results.map((r) => r.family_visit_id)).size).toBe(1);
    const audit = await env.DB.prepare(
      "SELECT target_id, json_extract(after, '$.familyVisit') AS family FROM audit_log WHERE action = 'booking.booked_by_phone' AND target_id IN (SELECT value FROM json_each(?1))",
    )
      .bind(JSON.stringify(insertedIds))
      .all<{ target_id: string; family: number }>();
    expect(audit.results.map((r) => r.family)).toEqual([1, 1]);
  });
});
