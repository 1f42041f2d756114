import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { holdEnd, holdRules, openWeek } from '../src/booking/holds.ts';
import { clinicInstant, clinicNow } from '../src/platform/clinic-time.ts';
import type { Env } from '../src/platform/env.ts';
import { accessTokenFor, addUser, bearer, call, clinicDay, pinClock, runCron, seed } from './helpers.ts';

type Option = { _id: string; name: string; slots: string[] };
type Booking = { _id: string; treatment: string; paid: boolean; price: number; payBy: string | null };

const inDays = (n: number) => format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), n), 'yyyy-MM-dd');
/** The limit as configured in wrangler.toml (the test config widens it for the other tests). */
const DEFAULT_LIMIT = { MAX_UNPAID_BOOKINGS: undefined };
const LIMIT_MESSAGE = 'You already have 3 unpaid appointments; pay or cancel one before booking another';

beforeAll(async () => {
  await seed();
  // A free treatment, which never counts against the limit and is never released.
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-consult', 'Free Consultation', 0, 30, 'general-dentistry', 99)",
    ),
  ]);
});

let patients = 0;
/** A new patient of their own, signed in. */
async function newPatient(): Promise<{ id: string; auth: Record<string, string> }> {
  patients += 1;
  const email = `holder${patients}@example.com`;
  const id = await addUser(email, `Holder ${patients}`);
  return { id, auth: bearer(await accessTokenFor(email)) };
}

function book(
  auth: Record<string, string>,
  treatment: string,
  date: string,
  slot = '09.00 AM - 09.30 AM',
  bindings: Partial<Env> = {},
) {
  return call(
    '/api/bookings',
    {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ treatment, appointmentDate: date, slot }),
    },
    bindings,
  );
}

async function booked(auth: Record<string, string>, treatment: string, date: string, slot?: string): Promise<string> {
  const response = await book(auth, treatment, date, slot);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

const row = (id: string) =>
  env.DB.prepare('SELECT status, cancel_reason, hold_until, created_at, paid FROM bookings WHERE id = ?1')
    .bind(id)
    .first<{
      status: string;
      cancel_reason: string | null;
      hold_until: string | null;
      created_at: string;
      paid: number;
    }>();

/** As if the booking's hold had ended a minute ago. */
const endHold = (id: string) =>
  env.DB.prepare('UPDATE bookings SET hold_until = ?2 WHERE id = ?1')
    .bind(id, new Date(Date.now() - 60_000).toISOString())
    .run();

async function freeSlots(date: string, treatmentId: string): Promise<string[]> {
  const options = await (await call(`/api/appointmentOptions?date=${date}`)).json<Option[]>();
  return options.find((o) => o._id === treatmentId)!.slots;
}

describe('how long an unpaid booking is held', () => {
  const rules = holdRules({
    ...env,
    MAX_UNPAID_BOOKINGS: undefined,
    HOLD_HOURS_AFTER_BOOKING: undefined,
    HOLD_HOURS_BEFORE_START: undefined,
    MIN_HOLD_MINUTES: undefined,
  });
  const at = (iso: string) => new Date(iso);

  it('defaults to 3 unpaid bookings, 24 hours after booking, 12 hours before the start, at least 60 minutes', () => {
    expect(rules).toEqual({ maxUnpaid: 3, hoursAfterBooking: 24, hoursBeforeStart: 12, minMinutes: 60 });
    expect(holdRules({ ...env, MAX_UNPAID_BOOKINGS: 'many', MIN_HOLD_MINUTES: '-5' })).toMatchObject({
      maxUnpaid: 3,
      minMinutes: 60,
    });
  });

  it('ends 24 hours after booking for an appointment days away', () => {
    expect(holdEnd(at('2026-12-01T15:00:00Z'), at('2026-12-10T14:00:00Z'), rules)).toEqual(at('2026-12-02T15:00:00Z'));
  });

  it('ends 12 hours before the start when that comes first', () => {
    expect(holdEnd(at('2026-12-01T15:00:00Z'), at('2026-12-02T14:00:00Z'), rules)).toEqual(at('2026-12-02T02:00:00Z'));
  });

  it('gives a booking made shortly before the appointment an hour to pay, never past the start', () => {
    expect(holdEnd(at('2026-12-01T09:00:00Z'), at('2026-12-01T14:00:00Z'), rules)).toEqual(at('2026-12-01T10:00:00Z'));
    expect(holdEnd(at('2026-12-01T13:40:00Z'), at('2026-12-01T14:00:00Z'), rules)).toEqual(at('2026-12-01T14:00:00Z'));
  });
});

describe('holding unpaid bookings', () => {
  it('stores the hold’s end on the booking and shows it to the patient as payBy until it is paid', async () => {
    const { auth } = await newPatient();
    const date = inDays(5);
    const id = await booked(auth, 'Teeth Whitening', date, '10.00 AM - 11.00 AM');
    const stored = (await row(id))!;
    const start = clinicInstant(env, date, 10 * 60);
    expect(stored.hold_until).toBe(
      holdEnd(new Date(stored.created_at), start, holdRules(env), await openWeek(env)).toISOString(),
    );
    expect(Date.parse(stored.hold_until ?? '')).toBeLessThanOrEqual(Date.parse(stored.created_at) + 24 * 3600_000);
    const list = await (await call('/api/bookings', { headers: auth })).json<Booking[]>();
    expect(list).toEqual([expect.objectContaining({ _id: id, paid: false, payBy: stored.hold_until })]);

    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(id).run();
    const paid = await (await call(`/api/bookings/${id}`, { headers: auth })).json<Booking>();
    expect(paid.payBy).toBeNull();
  });

  it.each([
    ['at night', 'the closing time of the day it was made', 3 * 60 + 50, 0, 17 * 60, '10.00 AM - 10.30 AM'],
    ['late in the evening', 'the next day’s closing time', 20 * 60, 1, 17 * 60, '10.30 AM - 11.00 AM'],
    [
      'in the afternoon',
      '24 hours later, while the clinic is open',
      16 * 60 + 30,
      1,
      16 * 60 + 30,
      '11.00 AM - 11.30 AM',
    ],
  ])(
    'makes the deadline of a booking made %s fall while the clinic is open: %s',
    async (_when, _what, minute, days, at, slot) => {
      // The seed clinic opens 9:00 to 17:00 every day; the visit is a week later, so the 24-hour rule applies.
      const [day, next, visit] = [clinicDay(2), clinicDay(3), clinicDay(7)];
      pinClock(clinicInstant(env, day, minute).toISOString());
      try {
        const { auth } = await newPatient();
        const id = await booked(auth, 'Teeth Cleaning', visit, slot);
        const due = clinicInstant(env, days === 0 ? day : next, at).toISOString();
        expect((await row(id))?.hold_until).toBe(due);
        expect((await (await call(`/api/bookings/${id}`, { headers: auth })).json<Booking>()).payBy).toBe(due);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('holds nothing for a free treatment', async () => {
    const { auth } = await newPatient();
    const id = await booked(auth, 'Free Consultation', inDays(5));
    expect((await row(id))?.hold_until).toBeNull();
    expect((await (await call(`/api/bookings/${id}`, { headers: auth })).json<Booking>()).payBy).toBeNull();
  });
});

describe('the limit of unpaid bookings per patient', () => {
  it('refuses a 4th unpaid booking of a priced treatment with 409 and stores nothing', async () => {
    const { id: userId, auth } = await newPatient();
    for (const day of [3, 4, 5])
      expect((await book(auth, 'Teeth Cleaning', inDays(day), '03.00 PM - 03.30 PM', DEFAULT_LIMIT)).status).toBe(201);
    const refused = await book(auth, 'Teeth Cleaning', inDays(6), '03.00 PM - 03.30 PM', DEFAULT_LIMIT);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ acknowledged: false, message: LIMIT_MESSAGE });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM bookings WHERE user_id = ?1 AND status = 'active'")
      .bind(userId)
      .first<number>('n');
    expect(stored).toBe(3);
    expect(await freeSlots(inDays(6), 'teeth-cleaning')).toContain('03.00 PM - 03.30 PM');
  });

  it('still lets that patient book a free treatment', async () => {
    const { auth } = await newPatient();
    for (const day of [3, 4, 5]) await booked(auth, 'Teeth Cleaning', inDays(day), '10.00 AM - 10.30 AM');
    expect((await book(auth, 'Free Consultation', inDays(6), undefined, DEFAULT_LIMIT)).status).toBe(201);
  });

  it('makes room when one is paid, cancelled or released', async () => {
    const { auth } = await newPatient();
    const FOUR_PM = '04.00 PM - 04.30 PM';
    const ids: string[] = [];
    for (const day of [3, 4, 5]) ids.push(await booked(auth, 'Dental Check-up', inDays(day), FOUR_PM));
    const [toPay, toCancel, toRelease] = ids as [string, string, string];
    expect((await book(auth, 'Dental Check-up', inDays(6), FOUR_PM, DEFAULT_LIMIT)).status).toBe(409);

    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(toPay).run();
    expect((await book(auth, 'Dental Check-up', inDays(6), FOUR_PM, DEFAULT_LIMIT)).status).toBe(201);
    expect((await book(auth, 'Dental Check-up', inDays(7), FOUR_PM, DEFAULT_LIMIT)).status).toBe(409);

    expect((await call(`/api/bookings/${toCancel}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await book(auth, 'Dental Check-up', inDays(7), FOUR_PM, DEFAULT_LIMIT)).status).toBe(201);
    expect((await book(auth, 'Dental Check-up', inDays(8), FOUR_PM, DEFAULT_LIMIT)).status).toBe(409);

    await endHold(toRelease);
    expect((await book(auth, 'Dental Check-up', inDays(8), FOUR_PM, DEFAULT_LIMIT)).status).toBe(201);
  });

  it('holds when one patient fires 10 bookings at once: 3 are booked, 7 refused', async () => {
    const { id: userId, auth } = await newPatient();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        book(auth, 'Teeth Cleaning', inDays(10 + i), '02.00 PM - 02.30 PM', DEFAULT_LIMIT),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    const refused = await responses.find((r) => r.status === 409)!.json();
    expect(refused).toEqual({ acknowledged: false, message: LIMIT_MESSAGE });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM bookings WHERE user_id = ?1 AND status = 'active'")
      .bind(userId)
      .first<number>('n');
    expect(stored).toBe(3);
  });

  it('follows MAX_UNPAID_BOOKINGS', async () => {
    const { auth } = await newPatient();
    expect(
      (await book(auth, 'Teeth Cleaning', inDays(3), '11.00 AM - 11.30 AM', { MAX_UNPAID_BOOKINGS: '1' })).status,
    ).toBe(201);
    const refused = await book(auth, 'Teeth Cleaning', inDays(4), '11.00 AM - 11.30 AM', { MAX_UNPAID_BOOKINGS: '1' });
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message: 'You already have 1 unpaid appointment; pay or cancel one before booking another',
    });
  });
});

describe('releasing a booking whose hold has ended', () => {
  it('shows its slot free at once, hides it from the patient and refuses to pay it', async () => {
    const { auth } = await newPatient();
    const date = inDays(8);
    const id = await booked(auth, 'Cavity Filling', date, '09.30 AM - 10.30 AM');
    const intent = await call('/api/create-payment-intent', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bookingId: id }),
    });
    const { clientSecret } = await intent.json<{ clientSecret: string }>();
    expect(await freeSlots(date, 'cavity-filling')).not.toContain('09.30 AM - 10.30 AM');

    await endHold(id);
    expect(await freeSlots(date, 'cavity-filling')).toContain('09.30 AM - 10.30 AM');
    expect(await (await call('/api/bookings', { headers: auth })).json()).toEqual([]);
    const released = {
      acknowledged: false,
      message: 'This booking was released because it was not paid in time; please book again',
    };
    const load = await call(`/api/bookings/${id}`, { headers: auth });
    expect(load.status).toBe(410);
    const again = await call('/api/create-payment-intent', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bookingId: id }),
    });
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual(released);
    const confirm = await call('/api/demo-payments/confirm', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        clientSecret,
        card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
      }),
    });
    expect(confirm.status).toBe(410);
    expect(await confirm.json()).toEqual(released);
    expect((await row(id))?.paid).toBe(0);
  });

  it('is released by the next booking of its slot, in the same batch, and the other patient gets it', async () => {
    const first = await newPatient();
    const second = await newPatient();
    const date = inDays(9);
    const nine = '09.00 AM - 10.30 AM';
    const id = await booked(first.auth, 'Root Canal Treatment', date, nine);
    expect((await book(second.auth, 'Root Canal Treatment', date, nine)).status).toBe(409);

    await endHold(id);
    const taken = await book(second.auth, 'Root Canal Treatment', date, nine);
    expect(taken.status).toBe(201);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await freeSlots(date, 'root-canal')).not.toContain(nine);
    // The released booking's claims went in that batch; the new booking holds the cells.
    const claims = await env.DB.prepare(
      'SELECT booking_id, count(*) AS n FROM claims WHERE day = ?1 GROUP BY booking_id',
    )
      .bind(date)
      .all();
    expect(claims.results).toEqual([{ booking_id: (await taken.json<{ insertedId: string }>()).insertedId, n: 18 }]);
    const mine = await (await call('/api/bookings', { headers: second.auth })).json<Booking[]>();
    expect(mine.map((b) => b.treatment)).toEqual(['Root Canal Treatment']);
  });

  it('lets the same patient book that treatment and date again', async () => {
    const { auth } = await newPatient();
    const date = inDays(9);
    const id = await booked(auth, 'Orthodontic Consultation', date, '01.00 PM - 02.00 PM');
    await endHold(id);
    expect((await book(auth, 'Orthodontic Consultation', date, '02.00 PM - 03.00 PM')).status).toBe(201);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
  });

  it('is never applied to a paid booking or a free one', async () => {
    const { auth } = await newPatient();
    const other = await newPatient();
    const date = inDays(11);
    const paid = await booked(auth, 'Teeth Whitening', date, '10.00 AM - 11.00 AM');
    const free = await booked(auth, 'Free Consultation', date);
    await endHold(paid);
    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(paid).run();
    await runCron(Date.now());
    expect((await book(other.auth, 'Teeth Whitening', date, '10.00 AM - 11.00 AM')).status).toBe(409);
    expect((await book(other.auth, 'Free Consultation', date)).status).toBe(409);
    expect(await row(paid)).toMatchObject({ status: 'active' });
    expect(await row(free)).toMatchObject({ status: 'active' });
  });
});

describe('the Cron Trigger', () => {
  it('releases exactly the holds that ended by its scheduled time, freeing their slots', async () => {
    const { auth } = await newPatient();
    const other = await newPatient();
    const date = inDays(12);
    const id = await booked(auth, 'Fluoride Treatment', date, '11.00 AM - 11.30 AM');
    const holdUntil = Date.parse((await row(id))!.hold_until!);

    await runCron(holdUntil - 1);
    expect(await row(id)).toMatchObject({ status: 'active', cancel_reason: null });
    await runCron(holdUntil);
    expect(await row(id)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });

    expect(await freeSlots(date, 'fluoride-treatment')).toContain('11.00 AM - 11.30 AM');
    expect(await env.DB.prepare('SELECT count(*) AS n FROM claims WHERE booking_id = ?1').bind(id).first('n')).toBe(0);
    expect((await call(`/api/bookings/${id}`, { headers: auth })).status).toBe(410);
    expect((await book(other.auth, 'Fluoride Treatment', date, '11.00 AM - 11.30 AM')).status).toBe(201);
  });
});
