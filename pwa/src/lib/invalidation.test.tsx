import { act, screen, waitFor } from '@testing-library/react';
import useSWR from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../contract/routes.ts';
import { describeRequest, json, renderWithProviders, stubFetch } from '../testing/test-utils.tsx';
import { api, apiFetcher } from './api.ts';
import {
  appointmentOptionsKey,
  CLOSURES_KEY,
  myBookingsKey,
  myFamilyKey,
  mySmsKey,
  myWaitlistKey,
  POLICY_KEY,
  REFUNDS_KEY,
  REVIEW_KEY,
  REVIEWS_KEY,
  scheduleDayKey,
} from './cache-keys.ts';
import { ClinicDatabase } from './db.ts';
import { INVALIDATES, writeRouteOf } from './invalidation.ts';
import { Outbox } from './outbox.ts';

const EMAIL = 'desk@clinic.test';

/** One read of each kind the app shows, keyed as its feature keys it, and the API path it fetches. */
const SCREENS: Record<string, { key: unknown; path: string }> = {
  freeTimes: { key: appointmentOptionsKey('Dec 3, 2026'), path: '/appointmentOptions?date=Dec%203%2C%202026' },
  bookings: { key: myBookingsKey(EMAIL), path: '/bookings?email=x' },
  schedule: { key: scheduleDayKey('2026-12-03'), path: '/schedule?date=2026-12-03' },
  reviewList: { key: REVIEW_KEY, path: '/schedule/review' },
  refunds: { key: REFUNDS_KEY, path: REFUNDS_KEY },
  insights: { key: '/insights?from=2026-12-01&to=2026-12-07', path: '/insights?from=2026-12-01&to=2026-12-07' },
  activity: { key: '/audit', path: '/audit' },
  waitlist: { key: myWaitlistKey(EMAIL), path: '/waitlist' },
  family: { key: myFamilyKey(EMAIL), path: '/users/me/dependants' },
  recalls: { key: '/recalls', path: '/recalls' },
  links: { key: '/links/t/forms', path: '/links/t/forms' },
  clinic: { key: CLOSURES_KEY, path: CLOSURES_KEY },
  settings: { key: POLICY_KEY, path: POLICY_KEY },
  forms: { key: '/forms', path: '/forms' },
  users: { key: '/users?q=&page=1', path: '/users?q=&page=1' },
  reviews: { key: REVIEWS_KEY, path: REVIEWS_KEY },
  account: { key: mySmsKey(EMAIL), path: '/users/me/sms' },
};
/** The screens a read of the map stands for (the schedule's review list is the schedule's). */
const SCREENS_OF: Record<string, string[]> = { schedule: ['schedule', 'reviewList'] };

let gets: string[];

beforeEach(() => {
  gets = [];
  stubFetch((request) => {
    if (request.method === 'GET') gets.push(describeRequest(request).replace(/^GET \/api/, ''));
    return json({ acknowledged: true, message: 'done' });
  });
});

function Read({ name, cacheKey, path }: { name: string; cacheKey: unknown; path: string }) {
  const { data } = useSWR(cacheKey as string, () => apiFetcher(path));
  return data ? <p>{name} loaded</p> : null;
}

/** Every screen at once, as after a day at the desk: each read cached and shown. */
function Screens() {
  return Object.entries(SCREENS).map(([name, { key, path }]) => (
    <Read key={name} name={name} cacheKey={key} path={path} />
  ));
}

const allLoaded = () =>
  waitFor(() => expect(screen.getAllByText(/ loaded$/)).toHaveLength(Object.keys(SCREENS).length));

/** A concrete path of a route's pattern. */
const pathOf = (route: string) => route.split(' ')[1]?.replace(/:[a-zA-Z]+\+?/g, 'x1') ?? '';

describe('every write refreshes what it changes, everywhere it shows', () => {
  it('has a line in the map for every write route of the contract, and only for those', () => {
    const writes = Object.keys(routes).filter((route) => !route.startsWith('GET '));
    expect(Object.keys(INVALIDATES).sort()).toEqual(writes.sort());
    for (const route of writes) expect(writeRouteOf(route.split(' ')[0] ?? '', pathOf(route))).toBe(route);
  });

  it('refreshes the screens the journeys meet: a closure the review list, a mark the day, a cancel the refunds', async () => {
    renderWithProviders(<Screens />);
    await allLoaded();
    for (const [write, shown] of [
      [
        'POST /closures',
        ['/schedule/review', '/schedule?date=2026-12-03', '/appointmentOptions?date=Dec%203%2C%202026'],
      ],
      ['POST /bookings/b1/attendance', ['/schedule?date=2026-12-03', '/recalls']],
      ['DELETE /bookings/b1', ['/refunds', '/bookings?email=x', '/insights?from=2026-12-01&to=2026-12-07']],
      ['POST /bookings/b1/keep', ['/schedule/review']],
    ] as const) {
      gets = [];
      const [method = '', path = ''] = write.split(' ');
      await act(() => api(path, { method, body: '{}' }));
      for (const read of shown) expect(gets, write).toContain(read);
    }
  });

  it('after each write, fetches again exactly the screens it changed', { timeout: 60_000 }, async () => {
    renderWithProviders(<Screens />);
    await allLoaded();
    for (const [route, reads] of Object.entries(INVALIDATES)) {
      const [method = '', pattern = ''] = route.split(' ');
      gets = [];
      await act(() => api(pathOf(`${method} ${pattern}`), { method, body: '{}' }));
      const expected = new Set(reads.flatMap((read) => SCREENS_OF[read] ?? [read]));
      const refetched = Object.entries(SCREENS)
        .filter(([, { path }]) => gets.includes(path))
        .map(([name]) => name);
      expect(refetched.sort(), route).toEqual([...expected].filter((name) => name in SCREENS).sort());
    }
  });

  it('refreshes after a write that waited in the outbox is sent, and after a refusal of what changed meanwhile', async () => {
    renderWithProviders(<Screens />);
    await allLoaded();
    gets = [];
    const outbox = new Outbox({ db: new ClinicDatabase(`invalidation-${crypto.randomUUID()}`), isOnline: () => true });
    await act(() =>
      outbox.enqueue({
        key: 'offline-mark-0001',
        path: '/bookings/b1/attendance',
        method: 'POST',
        body: JSON.stringify({ status: 'attended', version: 1 }),
        label: 'Pat marked as attended',
      }),
    );
    await waitFor(() => expect(gets).toContain('/schedule?date=2026-12-03'));
    expect(gets).toContain('/schedule/review');

    gets = [];
    stubFetch((request) => {
      if (request.method === 'GET') gets.push(describeRequest(request).replace(/^GET \/api/, ''));
      return request.method === 'GET' ? json({}) : json({ acknowledged: false, message: 'changed' }, 409);
    });
    await act(() => api('/bookings/b1/keep', { method: 'POST' }).catch(() => undefined));
    expect(gets).toContain('/schedule/review');
  });
});
