import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { displayDate, weekdayOf } from '../src/platform/clinic-time.ts';
import {
  accessTokenFor,
  addDoctorAs,
  bearer,
  bookAs,
  call,
  clinicDay,
  newPatient,
  optionsOn,
  seed,
  slotsOf,
} from './helpers.ts';

let admin: Record<string, string>;
let patient: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  patient = bearer(await accessTokenFor('patient@clinic.test'));
});

function send(method: string, path: string, body?: unknown, headers = admin) {
  return call(path, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
/** A refused write: its status, a message naming the problem, `acknowledged: false`. */
async function expectRefusal(response: Response, status: number, message: string) {
  const body = await response.json<{ message: string; acknowledged?: boolean }>();
  expect([response.status, body.acknowledged], body.message).toEqual([status, false]);
  expect(body.message).toContain(message);
}
const needsReview = (id: string) =>
  env.DB.prepare('SELECT needs_review FROM bookings WHERE id = ?1').bind(id).first<number>('needs_review');
async function booked(
  treatment: string,
  appointmentDate: string,
  slot: string,
): Promise<{ id: string; auth: Record<string, string> }> {
  const { auth } = await newPatient();
  const response = await bookAs(auth, { treatment, appointmentDate, slot });
  expect(response.status, await response.clone().text()).toBe(201);
  return { id: (await response.json<{ insertedId: string }>()).insertedId, auth };
}
const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, open: '09:00', close: '17:00' }));

describe('the admin API is for admins', () => {
  it('answers 401 without a token and 403 to a patient, changing nothing', async () => {
    const writes: [string, string, unknown][] = [
      ['POST', '/api/treatments', { name: 'X', price: 1, durationMinutes: 30, specialty: 'General Dentistry' }],
      ['PUT', '/api/treatments/teeth-cleaning', { price: 1 }],
      ['DELETE', '/api/treatments/teeth-cleaning', undefined],
      ['PUT', '/api/clinic/hours', { hours: [] }],
      ['POST', '/api/closures', { from: '2026-12-24', to: '2026-12-24', reason: 'X' }],
      ['POST', '/api/chairs', { name: 'Chair 9' }],
      ['DELETE', '/api/chairs/chair-1', undefined],
      ['PUT', '/api/doctors/dr-hiro-tanaka', { workingDays: [] }],
    ];
    for (const [method, path, body] of writes) {
      expect((await send(method, path, body, {})).status, path).toBe(401);
      expect((await send(method, path, body, patient)).status, path).toBe(403);
    }
    for (const path of ['/api/treatments', '/api/closures', '/api/chairs']) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, { headers: patient })).status).toBe(403);
    }
    expect((await call('/api/clinic/hours')).status).toBe(200);
    expect((await call('/api/chairs', { headers: admin })).status).toBe(200);
    expect(await (await call('/api/treatments', { headers: admin })).json()).toHaveLength(7);
  });
});

describe('treatments', () => {
  it('adds one with its price, length and specialty, offered to patients at once', async () => {
    const response = await send('POST', '/api/treatments', {
      name: 'Gum Care',
      price: 65.5,
      durationMinutes: 45,
      specialty: 'general dentistry',
    });
    expect(response.status).toBe(201);
    const { insertedId } = await response.json<{ insertedId: string }>();
    const list = await (await call('/api/treatments', { headers: admin })).json<unknown[]>();
    expect(list.at(-1)).toEqual({
      _id: insertedId,
      name: 'Gum Care',
      price: 65.5,
      durationMinutes: 45,
      specialty: 'General Dentistry',
      active: true,
      recallMonths: null,
      payment: 'full',
      depositPercent: null,
    });
    const option = (await optionsOn(clinicDay(5))).find((o) => o._id === insertedId);
    expect(option).toMatchObject({ name: 'Gum Care', price: 65.5, durationMinutes: 45 });
    expect(option?.slots.slice(0, 2)).toEqual(['09.00 AM - 09.45 AM', '09.30 AM - 10.15 AM']);
    expect(option?.slots.at(-1)).toBe('04.00 PM - 04.45 PM');
  });

  it('refuses bad input with 400 and a message that names the problem, and a name taken with 409', async () => {
    const good = { name: 'Sealant', price: 40, durationMinutes: 30, specialty: 'General Dentistry' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, name: '' }, 'name is required'],
      [{ ...good, name: undefined }, 'name is required'],
      [{ ...good, price: -1 }, 'price must not be negative'],
      [{ ...good, price: 10.005 }, 'price must have at most two decimals'],
      [{ ...good, price: '40' }, 'price must be a number of dollars'],
      [{ ...good, price: undefined }, 'price is required'],
      [{ ...good, durationMinutes: 50 }, 'durationMinutes must be a multiple of 15'],
      [{ ...good, durationMinutes: 0 }, 'durationMinutes must be at least 15'],
      [{ ...good, durationMinutes: 195 }, 'durationMinutes must be at most 180'],
      [{ ...good, durationMinutes: 30.5 }, 'durationMinutes must be a whole number of minutes'],
      [{ ...good, specialty: 'Astrology' }, "specialty must be one of the clinic's specialties"],
      [{ ...good, active: 'yes' }, 'active must be true or false'],
    ];
    for (const [body, message] of cases) await expectRefusal(await send('POST', '/api/treatments', body), 400, message);
    await expectRefusal(
      await send('POST', '/api/treatments', { ...good, name: 'Teeth Cleaning' }),
      409,
      'A treatment with this name already exists',
    );
    expect(await (await call('/api/treatments', { headers: admin })).json()).not.toContainEqual(
      expect.objectContaining({ name: 'Sealant' }),
    );
  });

  it('changes the fields sent; bookings already made keep their price and length', async () => {
    const date = clinicDay(6);
    const before = await booked('Teeth Cleaning', date, '09.00 AM - 09.30 AM');
    expect(
      await (await send('PUT', '/api/treatments/teeth-cleaning', { price: 95, durationMinutes: 45 })).json(),
    ).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: 'Treatment updated',
      withdrawnOffers: [],
    });
    const cleaning = (await optionsOn(date)).find((o) => o._id === 'teeth-cleaning')!;
    expect(cleaning).toMatchObject({ price: 95, durationMinutes: 45 });
    expect(cleaning.slots[0]).toBe('09.30 AM - 10.15 AM');
    const booking = await (await call(`/api/bookings/${before.id}`, { headers: before.auth })).json();
    expect(booking).toMatchObject({ price: 80, durationMinutes: 30, slot: '09.00 AM - 09.30 AM' });
    await expectRefusal(await send('PUT', '/api/treatments/no-such', { price: 1 }), 404, 'No such treatment');
    await expectRefusal(
      await send('PUT', '/api/treatments/teeth-cleaning', { name: 'Root Canal Treatment' }),
      409,
      'A treatment with this name already exists',
    );
    await expectRefusal(
      await send('PUT', '/api/treatments/teeth-cleaning', { durationMinutes: 20 }),
      400,
      'durationMinutes must be a multiple of 15',
    );
    await send('PUT', '/api/treatments/teeth-cleaning', { price: 80, durationMinutes: 30 });
  });

  it('deletes one without upcoming bookings, and deactivates one with them instead, saying so', async () => {
    const { insertedId } = await (
      await send('POST', '/api/treatments', {
        name: 'Unused',
        price: 1,
        durationMinutes: 15,
        specialty: 'Orthodontics',
      })
    ).json<{ insertedId: string }>();
    expect(await (await send('DELETE', `/api/treatments/${insertedId}`)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
      deactivated: false,
      message: 'Unused deleted',
      withdrawnOffers: [],
    });
    await expectRefusal(await send('DELETE', `/api/treatments/${insertedId}`), 404, 'No such treatment');

    const kept = await booked('Orthodontic Consultation', clinicDay(7), '01.00 PM - 02.00 PM');
    expect(await (await send('DELETE', '/api/treatments/orthodontic-consultation')).json()).toEqual({
      acknowledged: true,
      deletedCount: 0,
      deactivated: true,
      message:
        'Orthodontic Consultation has upcoming bookings, so it was deactivated instead: patients can no longer book it, and its bookings stay',
      withdrawnOffers: [],
    });
    expect((await optionsOn(clinicDay(8))).map((o) => o._id)).not.toContain('orthodontic-consultation');
    expect((await call(`/api/bookings/${kept.id}`, { headers: kept.auth })).status).toBe(200);
    expect(
      (await (await call('/api/treatments', { headers: admin })).json<{ _id: string; active: boolean }[]>()).find(
        (t) => t._id === 'orthodontic-consultation',
      )?.active,
    ).toBe(false);
    await send('PUT', '/api/treatments/orthodontic-consultation', { active: true });
  });
});

describe('opening hours', () => {
  it('answers the week to anyone and replaces it for an admin', async () => {
    expect(await (await call('/api/clinic/hours')).json()).toEqual(everyDay);
    const week = [
      { weekday: 6, open: '10:00', close: '14:00' },
      { weekday: 1, open: '08:00', close: '18:30' },
    ];
    // Forced: the tests before booked on other days.
    expect(await (await send('PUT', '/api/clinic/hours', { hours: week, force: true })).json()).toEqual({
      acknowledged: true,
      hours: [week[1], week[0]],
      stranded: expect.any(Array),
      withdrawnOffers: [],
    });
    expect(await (await call('/api/clinic/hours')).json()).toEqual([week[1], week[0]]);
    expect(await (await send('PUT', '/api/clinic/hours', { hours: everyDay })).json()).toEqual({
      acknowledged: true,
      hours: everyDay,
      stranded: [],
      withdrawnOffers: [],
    });
  });

  it('refuses bad hours with 400 and a message, changing nothing', async () => {
    const cases: [unknown, string][] = [
      [
        { hours: [{ weekday: 7, open: '09:00', close: '17:00' }] },
        'weekday must be a weekday number, 0 (Sunday) to 6 (Saturday)',
      ],
      [{ hours: [{ weekday: 1, open: '9:00', close: '17:00' }] }, 'open must be a time like "09:00" (24-hour clock)'],
      [{ hours: [{ weekday: 1, open: '09:10', close: '17:00' }] }, 'open must be on a quarter hour'],
      [{ hours: [{ weekday: 1, open: '17:00', close: '09:00' }] }, 'close must be later than open'],
      [{ hours: [{ weekday: 1, open: '09:00', close: '25:00' }] }, 'close must be a time like "09:00"'],
      [
        {
          hours: [
            { weekday: 1, open: '09:00', close: '17:00' },
            { weekday: 1, open: '18:00', close: '19:00' },
          ],
        },
        'hours must list each weekday at most once',
      ],
      [{ hours: 'always' }, 'hours must be a list of {weekday, open, close}'],
      [{}, 'hours is required'],
      [{ hours: [], force: 'yes' }, 'force must be true or false'],
    ];
    for (const [body, message] of cases)
      await expectRefusal(await send('PUT', '/api/clinic/hours', body), 400, message);
    expect(await (await call('/api/clinic/hours')).json()).toEqual(everyDay);
  });

  it('refuses (409) hours that would strand upcoming bookings, listing them; with force keeps and marks them', async () => {
    const date = clinicDay(9);
    const weekday = weekdayOf(date);
    const { id, auth } = await booked('Teeth Cleaning', date, '04.30 PM - 05.00 PM');
    const shorter = everyDay.map((d) => (d.weekday === weekday ? { ...d, close: '16:00' } : d));
    const refused = await send('PUT', '/api/clinic/hours', { hours: shorter });
    expect(refused.status).toBe(409);
    const answer = await refused.json<{ acknowledged: boolean; message: string; stranded: { _id: string }[] }>();
    expect(answer).toMatchObject({
      acknowledged: false,
      message: expect.stringContaining('1 upcoming booking would no longer fit the schedule'),
    });
    expect(answer.stranded).toEqual([
      {
        _id: id,
        treatment: 'Teeth Cleaning',
        appointmentDate: displayDate(date),
        date,
        slot: '04.30 PM - 05.00 PM',
        patientName: 'Patient patient',
        email: expect.stringMatching(/@example\.com$/),
        phone: '555 0100',
        doctor: 'Dr. Sofia Alvarez',
      },
    ]);
    expect(await (await call('/api/clinic/hours')).json()).toEqual(everyDay);
    expect(await needsReview(id)).toBe(0);

    const forced = await send('PUT', '/api/clinic/hours', { hours: shorter, force: true });
    expect(forced.status).toBe(200);
    expect((await forced.json<{ stranded: unknown[] }>()).stranded).toEqual(answer.stranded);
    expect(await needsReview(id)).toBe(1);
    expect((await call(`/api/bookings/${id}`, { headers: auth })).status).toBe(200);
    expect(await slotsOf(date, 'teeth-cleaning')).not.toContain('04.00 PM - 04.30 PM');
    expect((await send('PUT', '/api/clinic/hours', { hours: everyDay })).status).toBe(200);
  });
});

describe('closures', () => {
  it('adds, lists and deletes closures of the clinic and of one doctor', async () => {
    const [from, to] = [clinicDay(30), clinicDay(31)];
    const clinic = await send('POST', '/api/closures', { from, to, reason: 'Holidays' });
    expect(clinic.status).toBe(201);
    const { insertedId, stranded } = await clinic.json<{ insertedId: string; stranded: unknown[] }>();
    expect(stranded).toEqual([]);
    expect(
      (await send('POST', '/api/closures', { from: to, to, reason: 'Course', doctorId: 'dr-hiro-tanaka' })).status,
    ).toBe(201);
    expect(await (await call('/api/closures', { headers: admin })).json()).toEqual([
      { _id: insertedId, from, to, reason: 'Holidays', doctorId: null, doctor: null, createdAt: expect.any(String) },
      {
        _id: expect.any(String),
        from: to,
        to,
        reason: 'Course',
        doctorId: 'dr-hiro-tanaka',
        doctor: 'Dr. Hiro Tanaka',
        createdAt: expect.any(String),
      },
    ]);
    expect(await (await send('DELETE', `/api/closures/${insertedId}`)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    });
    await expectRefusal(await send('DELETE', `/api/closures/${insertedId}`), 404, 'No such closure');
    expect(await slotsOf(from, 'teeth-cleaning')).toHaveLength(16);
  });

  it('refuses bad closures with 400 and a message', async () => {
    const day = clinicDay(32);
    const cases: [Record<string, unknown>, string][] = [
      [{ from: day, to: clinicDay(31), reason: 'x' }, 'to must be the same day as from or later'],
      [{ from: '2026-02-30', to: day, reason: 'x' }, 'from must be a date like "2026-11-21"'],
      [{ from: 'Dec 24, 2026', to: day, reason: 'x' }, 'from must be a date like "2026-11-21"'],
      [{ from: day, to: day, reason: '' }, 'reason is required'],
      [{ from: day, to: day, reason: 'x', doctorId: 'no-such-doctor' }, "doctorId must be one of the clinic's doctors"],
      [{ from: day, reason: 'x' }, 'to is required'],
    ];
    for (const [body, message] of cases) await expectRefusal(await send('POST', '/api/closures', body), 400, message);
    expect(await (await call('/api/closures', { headers: admin })).json()).toHaveLength(1);
  });

  it('refuses (409) a closure over upcoming bookings, listing them; with force keeps and marks them', async () => {
    const date = clinicDay(33);
    const whitening = await booked('Teeth Whitening', date, '10.00 AM - 11.00 AM');
    const cleaning = await booked('Teeth Cleaning', date, '10.00 AM - 10.30 AM');
    // Another doctor's closure strands only their booking.
    const leave = await send('POST', '/api/closures', {
      from: date,
      to: date,
      reason: 'Leave',
      doctorId: 'dr-amelia-hart',
    });
    expect(leave.status).toBe(409);
    expect((await leave.json<{ stranded: { _id: string }[] }>()).stranded.map((b) => b._id)).toEqual([whitening.id]);
    const refused = await send('POST', '/api/closures', { from: date, to: date, reason: 'Flood' });
    expect(refused.status).toBe(409);
    const { stranded } = await refused.json<{ stranded: { _id: string }[] }>();
    expect(stranded.map((b) => b._id).sort()).toEqual([whitening.id, cleaning.id].sort());
    expect(await (await call('/api/closures', { headers: admin })).json()).toHaveLength(1);

    const forced = await send('POST', '/api/closures', { from: date, to: date, reason: 'Flood', force: true });
    expect(forced.status).toBe(201);
    expect((await forced.json<{ stranded: { _id: string }[] }>()).stranded.map((b) => b._id).sort()).toEqual(
      [whitening.id, cleaning.id].sort(),
    );
    expect([await needsReview(whitening.id), await needsReview(cleaning.id)]).toEqual([1, 1]);
    expect((await call(`/api/bookings/${cleaning.id}`, { headers: cleaning.auth })).status).toBe(200);
  });
});

describe('chairs', () => {
  it('adds and lists chairs; a name taken is a 409, a bad one a 400', async () => {
    const response = await send('POST', '/api/chairs', { name: 'Chair 3' });
    expect(response.status).toBe(201);
    const { insertedId } = await response.json<{ insertedId: string }>();
    expect(await (await call('/api/chairs', { headers: admin })).json()).toEqual([
      { _id: 'chair-1', name: 'Chair 1' },
      { _id: 'chair-2', name: 'Chair 2' },
      { _id: insertedId, name: 'Chair 3' },
    ]);
    await expectRefusal(
      await send('POST', '/api/chairs', { name: 'chair 3' }),
      409,
      'A chair with this name already exists',
    );
    await expectRefusal(await send('POST', '/api/chairs', { name: '' }), 400, 'name is required');
    await expectRefusal(
      await send('POST', '/api/chairs', { name: 'x'.repeat(51) }),
      400,
      'name must be at most 50 characters',
    );
    // A third chair: three bookings at one time (three doctors free).
    const date = clinicDay(34);
    await booked('Teeth Whitening', date, '09.00 AM - 10.00 AM');
    await booked('Root Canal Treatment', date, '09.00 AM - 10.30 AM');
    await booked('Orthodontic Consultation', date, '09.00 AM - 10.00 AM');
    expect(await slotsOf(date, 'teeth-cleaning')).not.toContain('09.00 AM - 09.30 AM');
    expect(await (await send('DELETE', `/api/chairs/${insertedId}?force=true`)).json()).toMatchObject({
      acknowledged: true,
      deletedCount: 1,
    });
  });

  it('renames a chair; a name another chair has is a 409, an unknown chair a 404', async () => {
    const { insertedId } = await (await send('POST', '/api/chairs', { name: 'Window chair' })).json<{
      insertedId: string;
    }>();
    const renamed = await send('PUT', `/api/chairs/${insertedId}`, { name: 'Garden chair' });
    expect(await renamed.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Renamed to Garden chair' });
    const chairs = await (await call('/api/chairs', { headers: admin })).json<{ _id: string; name: string }[]>();
    expect(chairs.find((c) => c._id === insertedId)?.name).toBe('Garden chair');
    await expectRefusal(await send('PUT', `/api/chairs/${insertedId}`, { name: 'chair 1' }), 409, 'already exists');
    await expectRefusal(await send('PUT', `/api/chairs/${insertedId}`, { name: '' }), 400, 'name');
    await expectRefusal(await send('PUT', '/api/chairs/no-such-chair', { name: 'X' }), 404, 'No such chair');
    expect((await send('DELETE', `/api/chairs/${insertedId}`)).status).toBe(200);
  });

  it('refuses (409) to delete a chair with upcoming bookings unless ?force=true; they stay, marked; unknown is 404', async () => {
    const date = clinicDay(35);
    const first = await booked('Teeth Whitening', date, '09.00 AM - 10.00 AM');
    const second = await booked('Root Canal Treatment', date, '09.00 AM - 10.30 AM');
    const chairOf = async (id: string) =>
      env.DB.prepare('SELECT chair_id FROM bookings WHERE id = ?1').bind(id).first<string | null>('chair_id');
    const doomed = (await chairOf(second.id))!;
    const refused = await send('DELETE', `/api/chairs/${doomed}`);
    expect(refused.status).toBe(409);
    expect(await refused.json<{ message: string; stranded: { _id: string }[] }>()).toMatchObject({
      message: expect.stringContaining('send it again with ?force=true'),
      stranded: expect.arrayContaining([expect.objectContaining({ _id: second.id })]),
    });
    await expectRefusal(
      await send('DELETE', `/api/chairs/${doomed}?force=maybe`),
      400,
      'force must be "true" or "false"',
    );
    const forced = await send('DELETE', `/api/chairs/${doomed}?force=true`);
    expect(await forced.json()).toMatchObject({
      acknowledged: true,
      deletedCount: 1,
      stranded: expect.arrayContaining([expect.objectContaining({ _id: second.id })]),
    });
    expect(await chairOf(second.id)).toBeNull();
    expect(await needsReview(second.id)).toBe(1);
    expect(await needsReview(first.id)).toBe(0);
    expect((await call(`/api/bookings/${second.id}`, { headers: second.auth })).status).toBe(200);
    await expectRefusal(await send('DELETE', `/api/chairs/${doomed}`), 404, 'No such chair');
    await send('POST', '/api/chairs', { name: 'Chair 2' });
  });
});

describe('doctors’ days and hours', () => {
  it('sets working days and hours on a new doctor and changes them; GET /api/doctors shows them', async () => {
    const id = await addDoctorAs(admin, {
      name: 'Dr. Part Time',
      email: 'part.time@clinic.test',
      specialty: 'Endodontics',
      workingDays: [5, 1, 3],
      hours: { start: '08:00', end: '12:00' },
    });
    const doctorOf = async () =>
      (await (await call('/api/doctors', { headers: admin })).json<{ _id: string }[]>()).find((d) => d._id === id);
    expect(await doctorOf()).toMatchObject({
      specialty: 'Endodontics',
      workingDays: [1, 3, 5],
      hours: { start: '08:00', end: '12:00' },
    });
    expect(
      await (
        await send('PUT', `/api/doctors/${id}`, {
          workingDays: [2],
          hours: { start: '13:00', end: '17:00' },
          name: 'Dr. Afternoon',
        })
      ).json(),
    ).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: 'Doctor updated',
      stranded: [],
      withdrawnOffers: [],
    });
    expect(await doctorOf()).toMatchObject({
      name: 'Dr. Afternoon',
      email: 'part.time@clinic.test',
      workingDays: [2],
      hours: { start: '13:00', end: '17:00' },
    });
  });

  it('refuses bad changes with 400, an email taken with 409 and an unknown doctor with 404', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ workingDays: [7] }, 'workingDays must be a weekday number'],
      [{ workingDays: [1, 1] }, 'workingDays must list each weekday at most once'],
      [{ workingDays: 'weekdays' }, 'workingDays must be a list of weekday numbers'],
      [{ hours: { start: '17:00', end: '09:00' } }, 'hours.end must be later than hours.start'],
      [{ hours: { start: '09:00' } }, 'hours.end is required'],
      [{ hours: '9-5' }, 'hours must be {start, end}'],
      [{ specialty: 'Astrology' }, "specialty must be one of the clinic's specialties"],
      [{ email: 'not an email' }, 'email must be a valid email address'],
    ];
    for (const [body, message] of cases)
      await expectRefusal(await send('PUT', '/api/doctors/dr-hiro-tanaka', body), 400, message);
    await expectRefusal(
      await send('PUT', '/api/doctors/dr-hiro-tanaka', { email: 'amelia.hart@clinic.test' }),
      409,
      'A doctor with this email already exists',
    );
    await expectRefusal(await send('PUT', '/api/doctors/no-such-doctor', { workingDays: [1] }), 404, 'No such doctor');
    await expectRefusal(
      await send('POST', '/api/doctors', {
        name: 'Dr. Bad',
        email: 'bad@clinic.test',
        specialty: 'Orthodontics',
        image: '/api/images/doctors/aaaaaaaaaaaa.png',
        workingDays: [9],
      }),
      400,
      'workingDays must be a weekday number',
    );
  });

  it('refuses (409) days, hours or a specialty that would strand their upcoming bookings; with force keeps and marks them', async () => {
    const date = clinicDay(36);
    const weekday = weekdayOf(date);
    const { id } = await booked('Orthodontic Consultation', date, '03.00 PM - 04.00 PM');
    const changes = [
      { workingDays: [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== weekday) },
      { hours: { start: '09:00', end: '15:30' } },
      { specialty: 'Endodontics' },
    ];
    for (const change of changes) {
      const refused = await send('PUT', '/api/doctors/dr-hiro-tanaka', change);
      expect(refused.status, JSON.stringify(change)).toBe(409);
      // (The orthodontist has other upcoming bookings from the tests before.)
      expect((await refused.json<{ stranded: { _id: string }[] }>()).stranded.map((b) => b._id)).toContain(id);
    }
    expect((await send('PUT', '/api/doctors/dr-hiro-tanaka', { hours: { start: '09:00', end: '16:00' } })).status).toBe(
      200,
    );
    const forced = await send('PUT', '/api/doctors/dr-hiro-tanaka', {
      hours: { start: '09:00', end: '12:00' },
      force: true,
    });
    expect(await forced.json()).toMatchObject({
      modifiedCount: 1,
      stranded: expect.arrayContaining([expect.objectContaining({ _id: id, doctor: 'Dr. Hiro Tanaka' })]),
    });
    expect(await needsReview(id)).toBe(1);
    await send('PUT', '/api/doctors/dr-hiro-tanaka', { hours: { start: '09:00', end: '17:00' } });
  });

  it('gives a doctor different hours on different days: patients see each day’s own times', async () => {
    // An endodontist of their own (a specialty nobody else performs) working Mon 09:00-13:00 and Wed 12:00-18:00.
    const specialty = await send('POST', '/api/specialties', { name: 'Implants' });
    expect(specialty.status).toBe(201);
    const id = await addDoctorAs(admin, {
      name: 'Dr. Split Week',
      email: 'split.week@clinic.test',
      specialty: 'Implants',
    });
    const added = await send('POST', '/api/treatments', {
      name: 'Implant Review',
      price: 90,
      durationMinutes: 60,
      specialty: 'Implants',
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const treatment = (await added.json<{ insertedId: string }>()).insertedId;
    const changed = await send('PUT', `/api/doctors/${id}`, {
      weeklyHours: [
        { weekday: 3, start: '12:00', end: '18:00' },
        { weekday: 1, start: '09:00', end: '13:00' },
      ],
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const listed = (await (await call('/api/doctors', { headers: admin })).json<{ _id: string }[]>()).find(
      (d) => d._id === id,
    );
    expect(listed).toMatchObject({
      workingDays: [1, 3],
      hours: { start: '09:00', end: '18:00' },
      weeklyHours: [
        { weekday: 1, start: '09:00', end: '13:00' },
        { weekday: 3, start: '12:00', end: '18:00' },
      ],
    });
    // A week no other test here touches: the closure of clinicDay(33), for one, fell on its Wednesday every Friday.
    const dayOf = (weekday: number) =>
      [40, 41, 42, 43, 44, 45, 46].map(clinicDay).find((date) => weekdayOf(date) === weekday) ?? '';
    const [monday, tuesday, wednesday] = [dayOf(1), dayOf(2), dayOf(3)];
    /** The first and last start offered that day, and how many (every half hour). */
    const range = async (date: string) => {
      const slots = await slotsOf(date, treatment);
      return [slots.at(0), slots.at(-1), slots.length];
    };
    expect(await range(monday)).toEqual(['09.00 AM - 10.00 AM', '12.00 PM - 01.00 PM', 7]);
    expect(await slotsOf(tuesday, treatment)).toEqual([]);
    // The clinic closes at 17:00: the doctor's hours end there that day.
    expect(await range(wednesday)).toEqual(['12.00 PM - 01.00 PM', '04.00 PM - 05.00 PM', 9]);
    // A booking on Wednesday afternoon is stranded by Wednesday mornings only; Monday's change leaves it be.
    const { id: bookingId } = await booked('Implant Review', wednesday, '03.00 PM - 04.00 PM');
    const mornings = await send('PUT', `/api/doctors/${id}`, {
      weeklyHours: [
        { weekday: 1, start: '13:00', end: '17:00' },
        { weekday: 3, start: '09:00', end: '13:00' },
      ],
    });
    expect(mornings.status).toBe(409);
    expect((await mornings.json<{ stranded: { _id: string }[] }>()).stranded.map((b) => b._id)).toEqual([bookingId]);
    const mondays = await send('PUT', `/api/doctors/${id}`, {
      weeklyHours: [
        { weekday: 1, start: '13:00', end: '17:00' },
        { weekday: 3, start: '12:00', end: '18:00' },
      ],
    });
    expect(mondays.status).toBe(200);
    expect(await range(monday)).toEqual(['01.00 PM - 02.00 PM', '04.00 PM - 05.00 PM', 7]);
    const bad: [Record<string, unknown>, string][] = [
      [{ weeklyHours: [{ weekday: 7, start: '09:00', end: '13:00' }] }, 'weeklyHours.weekday must be a weekday number'],
      [{ weeklyHours: [{ weekday: 1, start: '13:00', end: '09:00' }] }, 'each day’s end must be later than its start'],
      [
        {
          weeklyHours: [
            { weekday: 1, start: '09:00', end: '13:00' },
            { weekday: 1, start: '14:00', end: '16:00' },
          ],
        },
        'weeklyHours must list each weekday at most once',
      ],
      [{ weeklyHours: 'Mon 9-13' }, 'weeklyHours must be a list of {weekday, start, end}'],
      [{ weeklyHours: [], workingDays: [1] }, 'Send either weeklyHours or workingDays and hours, not both'],
    ];
    for (const [body, message] of bad) await expectRefusal(await send('PUT', `/api/doctors/${id}`, body), 400, message);
  });

  it('refuses (409) to delete a doctor with upcoming bookings unless ?force=true; the bookings stay, without a doctor', async () => {
    const target = await addDoctorAs(admin, {
      name: 'Dr. Leaving',
      email: 'leaving@clinic.test',
      specialty: 'Orthodontics',
    });
    // The other orthodontist is away that day: the booking is the new doctor's.
    const date = clinicDay(37);
    expect(
      (await send('POST', '/api/closures', { from: date, to: date, reason: 'Away', doctorId: 'dr-hiro-tanaka' }))
        .status,
    ).toBe(201);
    const kept = await booked('Orthodontic Consultation', date, '09.00 AM - 10.00 AM');
    const doctorOf = async () =>
      (await (await call(`/api/bookings/${kept.id}`, { headers: kept.auth })).json<{ doctor: unknown }>()).doctor;
    expect(await doctorOf()).toEqual({
      _id: target,
      name: 'Dr. Leaving',
      image: expect.stringMatching(/^\/api\/images\/doctors\//),
    });
    const refused = await send('DELETE', `/api/doctors/${target}`);
    expect(refused.status).toBe(409);
    expect((await refused.json<{ stranded: { _id: string }[] }>()).stranded.map((b) => b._id)).toEqual([kept.id]);
    expect((await send('DELETE', `/api/doctors/${target}?force=true`)).status).toBe(200);
    expect(await doctorOf()).toBeNull();
    expect(await needsReview(kept.id)).toBe(1);
    await expectRefusal(await send('DELETE', `/api/doctors/${target}?force=true`), 404, 'No such doctor');
  });
});

describe('GET /api/team', () => {
  it('lists every doctor’s name, specialty (and its id) and photo to anyone', async () => {
    const team = await (await call('/api/team')).json<{ name: string }[]>();
    // The seed adds the doctors within the same few milliseconds, so their order is not fixed.
    expect(team).toEqual(
      expect.arrayContaining([
        {
          _id: 'dr-amelia-hart',
          name: 'Dr. Amelia Hart',
          specialty: 'Cosmetic Dentistry',
          specialtyId: 'cosmetic-dentistry',
          image: '/api/images/doctors/seed-dr-amelia-hart.png',
        },
        {
          _id: 'dr-hiro-tanaka',
          name: 'Dr. Hiro Tanaka',
          specialty: 'Orthodontics',
          specialtyId: 'orthodontics',
          image: '/api/images/doctors/seed-dr-hiro-tanaka.png',
        },
        {
          _id: 'dr-kwame-mensah',
          name: 'Dr. Kwame Mensah',
          specialty: 'Endodontics',
          specialtyId: 'endodontics',
          image: '/api/images/doctors/seed-dr-kwame-mensah.png',
        },
      ]),
    );
    expect(JSON.stringify(team)).not.toContain('@clinic.test');
  });
});
