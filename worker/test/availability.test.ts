import { env } from 'cloudflare:test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { displayDate, weekdayOf } from '../src/platform/clinic-time.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  newPatient,
  optionsOn,
  pinClock,
  seed,
  slotsOf,
} from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

function send(method: string, path: string, body?: unknown) {
  return call(path, {
    method,
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const everyDay = (open = '09:00', close = '17:00', except: number[] = []) =>
  [0, 1, 2, 3, 4, 5, 6].filter((d) => !except.includes(d)).map((weekday) => ({ weekday, open, close }));

// Each test leaves the clinic as the seed has it.
afterEach(async () => {
  await env.DB.batch([
    env.DB.prepare('DELETE FROM clinic_hours'),
    env.DB.prepare(
      'INSERT INTO clinic_hours (weekday, open_minute, close_minute) SELECT value, 540, 1020 FROM json_each(?1)',
    ).bind('[0,1,2,3,4,5,6]'),
    env.DB.prepare('DELETE FROM closures'),
    env.DB.prepare('UPDATE doctors SET working_days = 127, start_minute = 540, end_minute = 1020'),
    env.DB.prepare("UPDATE doctors SET specialty_id = 'orthodontics' WHERE id = 'dr-hiro-tanaka'"),
    env.DB.prepare('UPDATE treatments SET active = 1'),
  ]);
});

describe('GET /api/appointmentOptions follows the clinic’s schedule', () => {
  it('offers starts inside the opening hours of the date’s weekday, and none on a weekday without hours', async () => {
    const date = clinicDay(10);
    const weekday = weekdayOf(date);
    const hours = everyDay().map((day) => (day.weekday === weekday ? { weekday, open: '12:00', close: '14:00' } : day));
    expect((await send('PUT', '/api/clinic/hours', { hours })).status).toBe(200);
    expect(await slotsOf(date, 'teeth-cleaning')).toEqual([
      '12.00 PM - 12.30 PM',
      '12.30 PM - 01.00 PM',
      '01.00 PM - 01.30 PM',
      '01.30 PM - 02.00 PM',
    ]);
    expect(await slotsOf(date, 'root-canal')).toEqual(['12.00 PM - 01.30 PM', '12.30 PM - 02.00 PM']);
    expect(await slotsOf(clinicDay(11), 'teeth-cleaning')).toHaveLength(16);

    expect((await send('PUT', '/api/clinic/hours', { hours: everyDay('09:00', '17:00', [weekday]) })).status).toBe(200);
    expect((await optionsOn(date)).every((o) => o.slots.length === 0)).toBe(true);
    const { auth } = await newPatient();
    const refused = await bookAs(auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message: `The clinic is closed on ${displayDate(date)}`,
    });
  });

  it('offers nothing on the days of a clinic closure, and for a doctor’s closure nothing of their treatments', async () => {
    const [date, next, after] = [clinicDay(12), clinicDay(13), clinicDay(14)];
    const closed = await send('POST', '/api/closures', { from: date, to: next, reason: 'Staff training' });
    expect(closed.status).toBe(201);
    for (const day of [date, next]) expect((await optionsOn(day)).every((o) => o.slots.length === 0)).toBe(true);
    expect(await slotsOf(after, 'teeth-cleaning')).toHaveLength(16);
    const { auth } = await newPatient();
    expect(
      (await bookAs(auth, { treatment: 'Teeth Cleaning', appointmentDate: next, slot: '09.00 AM - 09.30 AM' })).status,
    ).toBe(400);

    const { insertedId } = await closed.json<{ insertedId: string }>();
    expect((await send('DELETE', `/api/closures/${insertedId}`)).status).toBe(200);
    expect(await slotsOf(date, 'teeth-cleaning')).toHaveLength(16);

    expect(
      (await send('POST', '/api/closures', { from: date, to: date, reason: 'Conference', doctorId: 'dr-amelia-hart' }))
        .status,
    ).toBe(201);
    const options = await optionsOn(date);
    expect(options.find((o) => o._id === 'teeth-whitening')?.slots).toEqual([]);
    expect(options.find((o) => o._id === 'teeth-cleaning')?.slots).toHaveLength(16);
    expect(await slotsOf(next, 'teeth-whitening')).toHaveLength(15);
  });

  it('offers a treatment only while a doctor of its specialty works', async () => {
    const date = clinicDay(15);
    expect(await slotsOf(date, 'orthodontic-consultation')).toHaveLength(15);
    // The clinic's only orthodontist becomes an endodontist: nobody can do an orthodontic consultation.
    expect((await send('PUT', '/api/doctors/dr-hiro-tanaka', { specialty: 'Endodontics' })).status).toBe(200);
    expect(await slotsOf(date, 'orthodontic-consultation')).toEqual([]);
    expect(await slotsOf(date, 'root-canal')).toHaveLength(14);
  });

  it('follows the doctors’ working days and hours', async () => {
    const weekdays = [1, 2, 3, 4, 5];
    expect(
      (
        await send('PUT', '/api/doctors/dr-amelia-hart', {
          workingDays: weekdays,
          hours: { start: '10:00', end: '12:00' },
        })
      ).status,
    ).toBe(200);
    const days = [16, 17, 18, 19, 20, 21, 22].map(clinicDay);
    for (const date of days) {
      const whitening = await slotsOf(date, 'teeth-whitening');
      if (weekdays.includes(weekdayOf(date)))
        expect(whitening, date).toEqual(['10.00 AM - 11.00 AM', '10.30 AM - 11.30 AM', '11.00 AM - 12.00 PM']);
      else expect(whitening, date).toEqual([]);
      expect(await slotsOf(date, 'teeth-cleaning')).toHaveLength(16);
    }
  });

  it('leaves out an inactive treatment, and refuses to book it', async () => {
    expect((await send('PUT', '/api/treatments/teeth-whitening', { active: false })).status).toBe(200);
    const date = clinicDay(23);
    expect((await optionsOn(date)).map((o) => o._id)).not.toContain('teeth-whitening');
    const { auth } = await newPatient();
    const refused = await bookAs(auth, {
      treatment: 'Teeth Whitening',
      appointmentDate: date,
      slot: '10.00 AM - 11.00 AM',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message: 'Teeth Whitening is no longer offered; please choose another treatment',
    });
  });

  it('keeps the same doctor and chair for a treatment’s whole length, whatever the lengths around it', async () => {
    const date = clinicDay(24);
    const [a, b] = [await newPatient(), await newPatient()];
    // 09.00-10.30 on the endodontist and one chair, 09.00-10.00 on the cosmetic dentist and the other.
    expect(
      (await bookAs(a.auth, { treatment: 'Root Canal Treatment', appointmentDate: date, slot: '09.00 AM - 10.30 AM' }))
        .status,
    ).toBe(201);
    expect(
      (await bookAs(b.auth, { treatment: 'Teeth Whitening', appointmentDate: date, slot: '09.00 AM - 10.00 AM' }))
        .status,
    ).toBe(201);
    const options = await optionsOn(date);
    const first = (id: string) => options.find((o) => o._id === id)?.slots[0];
    // No chair before 10.00 (the general dentist is free), the endodontist from 10.30.
    expect(first('teeth-cleaning')).toBe('10.00 AM - 10.30 AM');
    expect(first('cavity-filling')).toBe('10.00 AM - 11.00 AM');
    expect(first('orthodontic-consultation')).toBe('10.00 AM - 11.00 AM');
    expect(first('root-canal')).toBe('10.30 AM - 12.00 PM');
    expect(first('teeth-whitening')).toBe('10.00 AM - 11.00 AM');
  });

  describe('on the days the clocks change (America/New_York)', () => {
    const wide = { BOOKING_HORIZON_DAYS: '800' };
    // A fixed now before both changes of 2027, whatever the day the tests run.
    beforeEach(async () => {
      pinClock('2027-02-01T15:00:00Z');
      admin = bearer(await accessTokenFor('admin@clinic.test'));
    });
    afterEach(() => vi.useRealTimers());
    /**
     * The clinic open on Sundays from `open` to `close` (forced over what the tests booked on
     * Sundays), the general dentist working round the clock.
     */
    async function nightShift(open: string, close: string) {
      const hours = [...everyDay('09:00', '17:00', [0]), { weekday: 0, open, close }];
      expect((await send('PUT', '/api/clinic/hours', { hours, force: true })).status).toBe(200);
      expect(
        (await send('PUT', '/api/doctors/dr-sofia-alvarez', { hours: { start: '00:00', end: '24:00' } })).status,
      ).toBe(200);
    }

    it('skips the hour that does not exist when they spring forward', async () => {
      await nightShift('01:00', '04:00');
      const date = '2027-03-14'; // a Sunday
      expect(await slotsOf(date, 'teeth-cleaning', wide)).toEqual([
        '01.00 AM - 01.30 AM',
        '03.00 AM - 03.30 AM',
        '03.30 AM - 04.00 AM',
      ]);
      const { auth } = await newPatient();
      for (const slot of ['01.30 AM - 02.00 AM', '02.00 AM - 02.30 AM']) {
        const refused = await bookAs(auth, { treatment: 'Teeth Cleaning', appointmentDate: date, slot }, wide);
        expect(refused.status, slot).toBe(400);
      }
      const booked = await bookAs(
        auth,
        { treatment: 'Teeth Cleaning', appointmentDate: date, slot: '03.00 AM - 03.30 AM' },
        wide,
      );
      expect(booked.status).toBe(201);
      const { insertedId } = await booked.json<{ insertedId: string }>();
      const booking = await (await call(`/api/bookings/${insertedId}`, { headers: auth })).json<{ startsAt: string }>();
      expect(booking.startsAt).toBe('2027-03-14T07:00:00.000Z'); // 3.00 am EDT
    });

    it('offers no start whose time spans the hour repeated when they fall back', async () => {
      await nightShift('00:00', '03:00');
      const slots = await slotsOf('2027-11-07', 'teeth-cleaning', wide); // a Sunday
      expect(slots).not.toContain('01.30 AM - 02.00 AM');
      expect(slots).toEqual(
        expect.arrayContaining([
          '12.00 AM - 12.30 AM',
          '12.30 AM - 01.00 AM',
          '02.00 AM - 02.30 AM',
          '02.30 AM - 03.00 AM',
        ]),
      );
      expect(await slotsOf('2027-11-07', 'cavity-filling', wide)).not.toContain('01.00 AM - 02.00 AM');
    });
  });
});
