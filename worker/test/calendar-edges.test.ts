/**
 * The calendar's edges, with the clock pinned (a fixed `now`, so these run the same on any day of
 * the year): the last evening of a month and of the year, a leap day, and the eves of both
 * daylight-saving changes. At each, today's past times are gone, tomorrow (another month or year)
 * is bookable, the booking starts at the right instant, the horizon ends on the right day, and a
 * range across the edge lists every day once.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenFor, bearer, bookAs, call, newPatient, optionsOn, pinClock, seed } from './helpers.ts';

beforeAll(seed);
afterEach(() => vi.useRealTimers());

const EDGES = [
  // [what, now (UTC), the clinic's today, tomorrow, tomorrow 09:00 as UTC, the horizon's last day]
  [
    'the last evening of the year',
    '2026-12-31T03:30:00Z',
    '2026-12-30',
    '2026-12-31',
    '2026-12-31T14:00:00.000Z',
    '2027-02-28',
  ],
  [
    'New Year’s Eve, 10.30 pm (already next year in UTC)',
    '2027-01-01T03:30:00Z',
    '2026-12-31',
    '2027-01-01',
    '2027-01-01T14:00:00.000Z',
    '2027-03-01',
  ],
  [
    'the last evening of January',
    '2027-02-01T02:00:00Z',
    '2027-01-31',
    '2027-02-01',
    '2027-02-01T14:00:00.000Z',
    '2027-04-01',
  ],
  [
    'the eve of a leap day',
    '2028-02-29T01:00:00Z',
    '2028-02-28',
    '2028-02-29',
    '2028-02-29T14:00:00.000Z',
    '2028-04-28',
  ],
  [
    'the eve of the clocks going forward',
    '2027-03-14T03:00:00Z',
    '2027-03-13',
    '2027-03-14',
    '2027-03-14T13:00:00.000Z',
    '2027-05-12',
  ],
  [
    'the eve of the clocks going back',
    '2027-11-07T02:00:00Z',
    '2027-11-06',
    '2027-11-07',
    '2027-11-07T14:00:00.000Z',
    '2028-01-05',
  ],
] as const;

describe.each(EDGES)('on %s', (_what, now, today, tomorrow, tomorrowAtNine, lastDay) => {
  it('offers no time left today, books tomorrow at the right instant, and ends the horizon on its day', async () => {
    pinClock(now);
    const { auth } = await newPatient('edge');
    const todays = await optionsOn(today);
    expect(todays.flatMap((o) => o.slots)).toEqual([]);

    const cleaning = (await optionsOn(tomorrow)).find((o) => o._id === 'teeth-cleaning');
    expect(cleaning?.slots[0]).toBe('09.00 AM - 09.30 AM');
    const booked = await bookAs(auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: tomorrow,
      slot: '09.00 AM - 09.30 AM',
    });
    expect(booked.status).toBe(201);
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const booking = await (await call(`/api/bookings/${insertedId}`, { headers: auth })).json<{ startsAt: string }>();
    expect(booking.startsAt).toBe(tomorrowAtNine);
    const mine = await (await call('/api/bookings', { headers: auth })).json<{ _id: string; date: string }[]>();
    expect(mine.map((b) => [b._id, b.date])).toEqual([[insertedId, tomorrow]]);

    expect((await optionsOn(lastDay)).some((o) => o.slots.length > 0)).toBe(true);
    const beyond = new Date(Date.parse(`${lastDay}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await optionsOn(beyond)).flatMap((o) => o.slots)).toEqual([]);
    const refused = await bookAs(auth, {
      treatment: 'Teeth Cleaning',
      appointmentDate: beyond,
      slot: '09.00 AM - 09.30 AM',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: 'Appointments can be booked up to 60 days ahead' });
  });

  it('lists each day of a week across the edge once, in the schedule and the insights', async () => {
    pinClock(now);
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const from = new Date(Date.parse(`${today}T12:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.parse(`${today}T12:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    const days = await (await call(`/api/schedule?from=${from}&to=${to}`, { headers: admin })).json<
      { date: string }[]
    >();
    expect(days.map((d) => d.date)).toHaveLength(7);
    expect(new Set(days.map((d) => d.date)).size).toBe(7);
    expect(days.map((d) => d.date)).toContain(tomorrow);
    const insights = await call(`/api/insights?from=${from}&to=${to}`, { headers: admin });
    expect(insights.status).toBe(200);
    expect((await insights.json<{ days: { date: string }[] }>()).days.map((d) => d.date)).toEqual(
      days.map((d) => d.date),
    );
  });
});

describe('the X-Test-Clock header (the browser tests’ pinned clock)', () => {
  it('pins a request’s clock only where the stack allows it', async () => {
    // January 3, 2000 is long past, but not for a request pinned on January 2, 2000.
    const request = { headers: { 'X-Test-Clock': '2000-01-02T15:00:00Z' } };
    const pinned = await call('/api/appointmentOptions?date=2000-01-03', request, { ALLOW_TEST_CLOCK: 'true' });
    expect((await pinned.json<{ slots: string[] }[]>()).some((o) => o.slots.length > 0)).toBe(true);
    // Without the setting (a deployed Worker) the header is ignored.
    const ignored = await call('/api/appointmentOptions?date=2000-01-03', request);
    expect((await ignored.json<{ slots: string[] }[]>()).flatMap((o) => o.slots)).toEqual([]);
  });
});
