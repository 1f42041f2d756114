import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { slotLabel } from '../../contract/slot-label.ts';
import { SEED_HOURS, SEED_TREATMENTS } from '../../scripts/seed-data.ts';
import { clinicInstant, clinicNow, firstBookableMinute } from '../src/platform/clinic-time.ts';
import { accessTokenFor, addUser, bearer, call, pinClock, seed } from './helpers.ts';

type Option = { _id: string; name: string; slots: string[]; price: number; durationMinutes: number };
type Booking = {
  _id: string;
  treatment: string;
  appointmentDate: string;
  slot: string;
  price: number;
  paid: boolean;
  patientName: string;
  email: string;
  startsAt: string;
  durationMinutes: number;
  doctor: { _id: string; name: string; image: string } | null;
};

const today = () => clinicNow(env).date;
const inDays = (n: number) => format(addDays(new Date(`${today()}T12:00:00`), n), 'yyyy-MM-dd');
const displayOf = (iso: string) => format(new Date(`${iso}T12:00:00`), 'PP');
/** Every start of a seed treatment on an open day with nothing booked: every 30 minutes from opening, ending by closing. */
const startsOf = (treatmentId: string) => {
  const { durationMinutes } = SEED_TREATMENTS.find((t) => t.id === treatmentId)!;
  const starts: number[] = [];
  for (let start = SEED_HOURS.open; start + durationMinutes <= SEED_HOURS.close; start += 30) starts.push(start);
  return starts;
};
const labelsOf = (treatmentId: string, starts = startsOf(treatmentId)) =>
  starts.map((start) => slotLabel(start, SEED_TREATMENTS.find((t) => t.id === treatmentId)!.durationMinutes));

let patient: Record<string, string>;
let other: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  await addUser('other@example.com', 'Other Patient');
  patient = bearer(await accessTokenFor('patient@clinic.test'));
  other = bearer(await accessTokenFor('other@example.com'));
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

async function options(date: string, bindings = {}): Promise<Option[]> {
  const response = await call(`/api/appointmentOptions?date=${encodeURIComponent(date)}`, undefined, bindings);
  expect(response.status).toBe(200);
  return response.json();
}

function book(headers: Record<string, string>, body: Record<string, unknown>, bindings = {}) {
  return call(
    '/api/bookings',
    { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) },
    bindings,
  );
}

describe('GET /api/appointmentOptions', () => {
  it('lists every treatment with all its starts (its start and end), its length and its price in dollars on a future date', async () => {
    const list = await options(inDays(3));
    expect(list.map((o) => o.name)).toEqual(SEED_TREATMENTS.map((t) => t.name));
    expect(list.map((o) => o.durationMinutes)).toEqual(SEED_TREATMENTS.map((t) => t.durationMinutes));
    const whitening = list.find((o) => o.name === 'Teeth Whitening')!;
    expect(whitening.price).toBe(250);
    expect(whitening.slots).toEqual(labelsOf('teeth-whitening'));
    expect(whitening.slots.slice(0, 2)).toEqual(['09.00 AM - 10.00 AM', '09.30 AM - 10.30 AM']);
    expect(whitening.slots.at(-1)).toBe('04.00 PM - 05.00 PM');
    const rootCanal = list.find((o) => o.name === 'Root Canal Treatment')!;
    expect(rootCanal.slots[0]).toBe('09.00 AM - 10.30 AM');
    expect(rootCanal.slots.at(-1)).toBe('03.30 PM - 05.00 PM');
  });

  it('accepts the date as PP or yyyy-MM-dd with the same answer', async () => {
    const iso = inDays(5);
    expect(await options(displayOf(iso))).toEqual(await options(iso));
  });

  it('refuses anything else with 400', async () => {
    for (const date of ['', 'tomorrow', '2026-02-31', '11/21/2026', '2026-1-5', "2026-11-21' OR 1=1"]) {
      const response = await call(`/api/appointmentOptions?date=${encodeURIComponent(date)}`);
      expect(response.status, date).toBe(400);
      expect(await response.json()).toEqual({ message: 'date must look like "Nov 21, 2026" or "2026-11-21"' });
    }
  });

  it('has no slots on past dates or beyond the booking horizon', async () => {
    for (const date of [inDays(-1), inDays(61)]) {
      const list = await options(date);
      expect(list).toHaveLength(SEED_TREATMENTS.length);
      expect(list.every((o) => o.slots.length === 0)).toBe(true);
    }
    expect((await options(inDays(60))).some((o) => o.slots.length > 0)).toBe(true);
  });

  it('hides the slots of today that have started (clinic time zone)', async () => {
    // The Worker reads the clock between these two readings: a slot that started before the first
    // is hidden, one that starts after the second is shown, whatever minute passes in between.
    const before = clinicNow(env);
    const list = await options(before.date);
    const after = clinicNow(env);
    const startsAfter = (now: { date: string; minute: number }, start: number) =>
      now.date === before.date && start > now.minute;
    for (const option of list) {
      const all = startsOf(option._id);
      const shown = all.filter((start) => option.slots.includes(slotLabel(start, option.durationMinutes)));
      expect(option.slots).toEqual(labelsOf(option._id, shown));
      expect(shown).toEqual(expect.arrayContaining(all.filter((start) => startsAfter(after, start))));
      expect(all.filter((start) => startsAfter(before, start))).toEqual(expect.arrayContaining(shown));
    }
  });
});

describe('GET /api/appointmentSpecialty', () => {
  it('lists the specialties as {_id, name}', async () => {
    const response = await call('/api/appointmentSpecialty');
    expect(await response.json()).toEqual([
      { _id: 'general-dentistry', name: 'General Dentistry' },
      { _id: 'endodontics', name: 'Endodontics' },
      { _id: 'cosmetic-dentistry', name: 'Cosmetic Dentistry' },
      { _id: 'orthodontics', name: 'Orthodontics' },
    ]);
  });
});

describe('POST /api/bookings', () => {
  it('books a free slot with the price from the treatment and the name and email from the token', async () => {
    const date = inDays(4);
    const response = await book(patient, {
      treatment: 'Cavity Filling',
      appointmentDate: displayOf(date),
      slot: '09.30 AM - 10.30 AM',
      patientName: 'Someone Else',
      email: 'patient@clinic.test',
      phone: '+1 555 0100',
      price: 1,
    });
    expect(response.status).toBe(201);
    const { insertedId } = await response.json<{ insertedId: string }>();
    const booking = await (await call(`/api/bookings/${insertedId}`, { headers: patient })).json<Booking>();
    expect(booking).toMatchObject({
      treatment: 'Cavity Filling',
      price: 150,
      patientName: 'Jamie Patient',
      email: 'patient@clinic.test',
      paid: false,
      appointmentDate: displayOf(date),
      slot: '09.30 AM - 10.30 AM',
      durationMinutes: 60,
      doctor: {
        _id: 'dr-sofia-alvarez',
        name: 'Dr. Sofia Alvarez',
        image: '/api/images/doctors/seed-dr-sofia-alvarez.png',
      },
    });
    // The filling's doctor is the clinic's only general dentist: every start overlapping 09.30-10.30 is gone.
    const filling = (await options(date)).find((o) => o.name === 'Cavity Filling')!;
    expect(filling.slots).not.toContain('09.30 AM - 10.30 AM');
    expect(filling.slots).not.toContain('09.00 AM - 10.00 AM');
    expect(filling.slots).not.toContain('10.00 AM - 11.00 AM');
    expect(filling.slots).toContain('10.30 AM - 11.30 AM');
    const cleaning = (await options(date)).find((o) => o.name === 'Teeth Cleaning')!;
    expect(cleaning.slots).not.toContain('10.00 AM - 10.30 AM');
    expect(cleaning.slots).toContain('10.30 AM - 11.00 AM');
  });

  it('lets exactly one of 50 simultaneous requests for one slot through', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await addUser(`racer${i}@example.com`, `Racer ${i}`);
        return bearer(await accessTokenFor(`racer${i}@example.com`));
      }),
    );
    const date = inDays(6);
    const slot = '11.00 AM - 11.30 AM';
    const responses = await Promise.all(
      tokens.map((t) => book(t, { treatment: 'teeth-cleaning', appointmentDate: date, slot })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const refused = await responses.find((r) => r.status === 409)!.json();
    expect(refused).toEqual({ acknowledged: false, message: 'This slot was just booked; please choose another one' });
    const cleaning = (await options(date)).find((o) => o._id === 'teeth-cleaning')!;
    expect(cleaning.slots).not.toContain(slot);
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM bookings WHERE appointment_date = ?1 AND slot = ?2 AND status = 'active'",
    )
      .bind(date, slot)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it('allows one booking per patient per treatment per date', async () => {
    const date = inDays(7);
    expect(
      (await book(other, { treatment: 'Dental Check-up', appointmentDate: date, slot: '09.00 AM - 09.30 AM' })).status,
    ).toBe(201);
    const second = await book(other, {
      treatment: 'Dental Check-up',
      appointmentDate: date,
      slot: '10.00 AM - 10.30 AM',
    });
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({
      acknowledged: false,
      message: `You already have a booking on ${displayOf(date)}`,
    });
    expect(
      (await book(other, { treatment: 'Teeth Cleaning', appointmentDate: date, slot: '10.00 AM - 10.30 AM' })).status,
    ).toBe(201);
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    ['someone else’s email', { email: 'admin@clinic.test' }, 403, 'You can only book appointments for yourself'],
    ['an unknown treatment', { treatment: 'Brain Surgery' }, 404, 'No such treatment: Brain Surgery'],
    [
      'a slot the treatment does not have',
      { slot: '07.00 AM - 07.30 AM' },
      400,
      'Cavity Filling has no slot "07.00 AM - 07.30 AM"',
    ],
    ['a past date', { appointmentDate: 'Jan 5, 2024' }, 400, 'This date has passed'],
    [
      'a date beyond the horizon',
      { appointmentDate: '2099-01-01' },
      400,
      'Appointments can be booked up to 60 days ahead',
    ],
    ['a malformed date', { appointmentDate: '31/12/2026' }, 400, 'appointmentDate must look like'],
    ['a missing slot', { slot: undefined }, 400, 'slot is required'],
    ['a number as phone', { phone: 5550100 }, 400, 'phone must be text'],
  ];
  for (const [what, change, status, message] of refusals) {
    it(`refuses ${what} with ${status} and books nothing`, async () => {
      const before = await env.DB.prepare('SELECT count(*) AS n FROM bookings').first<{ n: number }>();
      const response = await book(patient, {
        treatment: 'Cavity Filling',
        appointmentDate: inDays(8),
        slot: '10.30 AM - 11.30 AM',
        ...change,
      });
      expect(response.status).toBe(status);
      expect((await response.json<{ message: string }>()).message).toContain(message);
      const after = await env.DB.prepare('SELECT count(*) AS n FROM bookings').first<{ n: number }>();
      expect(after?.n).toBe(before?.n);
    });
  }

  it('refuses anonymous callers with 401', async () => {
    expect(
      (await book({}, { treatment: 'Cavity Filling', appointmentDate: inDays(8), slot: '10.30 AM - 11.30 AM' })).status,
    ).toBe(401);
  });
});

describe('reading, cancelling and exporting bookings', () => {
  let bookingId: string;
  const date = () => inDays(9);

  beforeAll(async () => {
    const response = await book(patient, {
      treatment: 'Teeth Whitening',
      appointmentDate: date(),
      slot: '10.00 AM - 11.00 AM',
    });
    bookingId = (await response.json<{ insertedId: string }>()).insertedId;
    await book(patient, { treatment: 'Teeth Cleaning', appointmentDate: inDays(2), slot: '03.00 PM - 03.30 PM' });
    await book(patient, { treatment: 'Teeth Cleaning', appointmentDate: inDays(2), slot: '09.00 AM - 09.30 AM' }).catch(
      () => undefined,
    );
  });

  it('lists the patient’s own bookings by date and time, and refuses someone else’s list', async () => {
    const list = await (await call('/api/bookings?email=patient@clinic.test', { headers: patient })).json<Booking[]>();
    const keys = list.map((b) => b.startsAt);
    expect(keys).toEqual([...keys].sort());
    expect(list.every((b) => b.email === 'patient@clinic.test')).toBe(true);
    expect((await call('/api/bookings?email=patient@clinic.test', { headers: other })).status).toBe(403);
    const forAdmin = await call('/api/bookings?email=Patient@Clinic.test', { headers: admin });
    expect(forAdmin.status).toBe(200);
    expect(await forAdmin.json()).toEqual(list);
    const nobody = await call('/api/bookings?email=nobody-here@example.com', { headers: admin });
    expect(await nobody.json()).toEqual([]);
    // No email: the caller's own.
    expect(await (await call('/api/bookings', { headers: patient })).json()).toEqual(list);
  });

  it('shows a booking to its owner and an admin, 403 to another patient, 404 when unknown', async () => {
    expect((await call(`/api/bookings/${bookingId}`, { headers: patient })).status).toBe(200);
    expect((await call(`/api/bookings/${bookingId}`, { headers: admin })).status).toBe(200);
    expect((await call(`/api/bookings/${bookingId}`, { headers: other })).status).toBe(403);
    expect((await call('/api/bookings/no-such-booking', { headers: patient })).status).toBe(404);
  });

  it('exports the booking as an .ics event for its owner only', async () => {
    const response = await call(`/api/bookings/${bookingId}/calendar.ics`, { headers: patient });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/calendar');
    const ics = await response.text();
    const instant = (minute: number) =>
      clinicInstant(env, date(), minute).toISOString().replace(/[-:]/g, '').replace('.000', '');
    expect(ics).toContain(`DTSTART:${instant(10 * 60)}`);
    expect(ics).toContain(`DTEND:${instant(11 * 60)}`);
    expect(ics).toContain('with Dr. Amelia Hart');
    expect(ics).toContain('SUMMARY:Teeth Whitening at Smile Dental Clinic');
    expect((await call(`/api/bookings/${bookingId}/calendar.ics`, { headers: other })).status).toBe(403);
    expect((await call(`/api/bookings/${bookingId}/calendar.ics`, { headers: admin })).status).toBe(403);
  });

  it('lets another patient neither cancel it (403) nor change anything', async () => {
    expect((await call(`/api/bookings/${bookingId}`, { method: 'DELETE', headers: other })).status).toBe(403);
    expect((await call(`/api/bookings/${bookingId}`, { headers: patient })).status).toBe(200);
  });

  it('cancels an unpaid booking for its owner and frees the slot at once', async () => {
    const response = await call(`/api/bookings/${bookingId}`, { method: 'DELETE', headers: patient });
    expect(await response.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    const whitening = (await options(date())).find((o) => o.name === 'Teeth Whitening')!;
    expect(whitening.slots).toContain('10.00 AM - 11.00 AM');
    expect(whitening.slots).toContain('09.30 AM - 10.30 AM');
    expect((await call(`/api/bookings/${bookingId}`, { headers: patient })).status).toBe(404);
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM claims WHERE booking_id = ?1').bind(bookingId).first('n'),
    ).toBe(0);
    // The freed time can be booked again.
    expect(
      (await book(other, { treatment: 'Teeth Whitening', appointmentDate: date(), slot: '10.00 AM - 11.00 AM' }))
        .status,
    ).toBe(201);
  });

  it('keeps a paid booking inside the cancellation policy’s window from its owner (409) but lets an admin cancel it', async () => {
    const response = await book(patient, {
      treatment: 'Root Canal Treatment',
      appointmentDate: inDays(10),
      slot: '09.00 AM - 10.30 AM',
    });
    const { insertedId } = await response.json<{ insertedId: string }>();
    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(insertedId).run();
    await env.DB.prepare('UPDATE cancellation_policy SET free_cancellation_hours = 720').run();
    const refused = await call(`/api/bookings/${insertedId}`, { method: 'DELETE', headers: patient });
    await env.DB.prepare('UPDATE cancellation_policy SET free_cancellation_hours = 24').run();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message:
        'A paid appointment can be cancelled online until 720 hours before it starts; please call the clinic to cancel this one',
    });
    const cancelled = await call(`/api/bookings/${insertedId}`, { method: 'DELETE', headers: admin });
    expect(await cancelled.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    expect((await call(`/api/bookings/${insertedId}`, { headers: patient })).status).toBe(404);
    const stored = await env.DB.prepare('SELECT status, cancel_reason FROM bookings WHERE id = ?1')
      .bind(insertedId)
      .first();
    expect(stored).toEqual({ status: 'cancelled', cancel_reason: 'admin' });
    const rootCanal = (await options(inDays(10))).find((o) => o.name === 'Root Canal Treatment')!;
    expect(rootCanal.slots).toContain('09.00 AM - 10.30 AM');
  });
});

describe('clinic time across daylight-saving changes (America/New_York)', () => {
  const wide = { BOOKING_HORIZON_DAYS: '400' };
  // A fixed now before both changes of 2027, whatever the day the tests run.
  beforeEach(async () => {
    pinClock('2027-02-01T15:00:00Z');
    patient = bearer(await accessTokenFor('patient@clinic.test'));
  });
  afterEach(() => vi.useRealTimers());

  it('reads the clinic date and minute from the zone, including the repeated hour', () => {
    expect(clinicNow(env, new Date('2026-11-01T05:30:00Z'))).toEqual({ date: '2026-11-01', minute: 90 }); // 1:30 EDT
    expect(clinicNow(env, new Date('2026-11-01T06:30:00Z'))).toEqual({ date: '2026-11-01', minute: 90 }); // 1:30 EST
    expect(clinicNow(env, new Date('2026-11-22T03:30:00Z'))).toEqual({ date: '2026-11-21', minute: 22 * 60 + 30 });
  });

  it('hides started slots by the clinic clock, not UTC', () => {
    // 13:59 UTC on a winter day is 8:59 in New York: every slot of the day is still ahead.
    expect(firstBookableMinute(env, '2026-12-01', new Date('2026-12-01T13:59:00Z'))).toBe(8 * 60 + 60);
    // 14:00 UTC is 9:00: the 9.00 slot has started.
    expect(firstBookableMinute(env, '2026-12-01', new Date('2026-12-01T14:00:00Z'))).toBe(9 * 60 + 1);
    // Late evening in New York is already tomorrow in UTC; today is still today.
    expect(firstBookableMinute(env, '2026-12-01', new Date('2026-12-02T03:00:00Z'))).toBe(22 * 60 + 1);
  });

  it('gives the full day of slots on a spring-forward and a fall-back date', async () => {
    for (const date of ['2027-03-14', '2027-11-07']) {
      const cleaning = (await options(date, wide)).find((o) => o._id === 'teeth-cleaning')!;
      expect(cleaning.slots).toHaveLength(16);
      expect(cleaning.slots[0]).toBe('09.00 AM - 09.30 AM');
      expect(cleaning.slots.at(-1)).toBe('04.30 PM - 05.00 PM');
    }
  });

  it('puts the .ics event at the right UTC instant on both sides of each change', async () => {
    const cases: [string, string][] = [
      ['2027-03-13', '20270313T140000Z'], // EST, UTC-5
      ['2027-03-14', '20270314T130000Z'], // EDT, UTC-4, the day clocks spring forward
      ['2027-11-06', '20271106T130000Z'], // EDT
      ['2027-11-07', '20271107T140000Z'], // EST, the day clocks fall back
    ];
    for (const [date, utc] of cases) {
      const response = await book(
        patient,
        { treatment: 'Dental Check-up', appointmentDate: date, slot: '09.00 AM - 09.30 AM' },
        wide,
      );
      expect(response.status, date).toBe(201);
      const { insertedId } = await response.json<{ insertedId: string }>();
      const ics = await (await call(`/api/bookings/${insertedId}/calendar.ics`, { headers: patient })).text();
      expect(ics).toContain(`DTSTART:${utc}`);
    }
  });
});
