import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accessTokenFor, describeRequest, json, stubFetch } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { requestFirstData } from './early-data.ts';

let seen: string[];

/** The Worker, answering each GET with the path it was asked for; a POST with "posted". */
function worker() {
  seen = [];
  return stubFetch((request) => {
    seen.push(`${describeRequest(request)} ${request.headers.get('Authorization')}`);
    const url = new URL(request.url);
    return json(request.method === 'GET' ? { answered: `${url.pathname}${url.search}`, n: seen.length } : 'posted');
  });
}

const token = accessTokenFor('pat@clinic.test');

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', token);
  vi.useRealTimers();
});

describe("a page's first data, requested with the app's code", () => {
  it('My Appointments: the app takes the list and the family requested early instead of asking again, then asks anew', async () => {
    worker();
    requestFirstData('/dashboard');
    expect(seen).toEqual([
      `GET /api/bookings?email=pat%40clinic.test Bearer ${token}`,
      `GET /api/users/me/dependants Bearer ${token}`,
    ]);

    await expect(api('/bookings?email=pat%40clinic.test')).resolves.toEqual({
      answered: '/api/bookings?email=pat%40clinic.test',
      n: 1,
    });
    await expect(api('/users/me/dependants')).resolves.toEqual({ answered: '/api/users/me/dependants', n: 2 });
    expect(seen).toHaveLength(2);
    // Taken once: a reload of the list asks the server.
    await expect(api('/bookings?email=pat%40clinic.test')).resolves.toMatchObject({ n: 3 });
  });

  it('the payment page: its booking, by the id in the address, and the card provider', async () => {
    worker();
    requestFirstData('/dashboard/payment/b%201');
    expect(seen).toEqual([`GET /api/bookings/b%201 Bearer ${token}`, `GET /api/payments/provider Bearer ${token}`]);
    await expect(api('/bookings/b%201')).resolves.toMatchObject({ n: 1 });
    expect(seen).toHaveLength(2);
  });

  it('is not taken by another user (another token), another path or a write', async () => {
    worker();
    requestFirstData('/dashboard');
    localStorage.setItem('accessToken', accessTokenFor('other@clinic.test'));
    await expect(api('/bookings?email=pat%40clinic.test')).resolves.toMatchObject({ n: 3 });
    await expect(api('/bookings?email=pat%40clinic.test', { method: 'POST', body: '{}' })).resolves.toBe('posted');
    expect(seen).toHaveLength(4);
  });

  it('is dropped when the app has not asked within ten seconds', async () => {
    vi.useFakeTimers();
    worker();
    requestFirstData('/dashboard');
    vi.advanceTimersByTime(10_000);
    vi.useRealTimers();
    await expect(api('/bookings?email=pat%40clinic.test')).resolves.toMatchObject({ n: 3 });
  });

  it.each([
    ['a page without first data', '/appointment', token],
    ['an admin page', '/dashboard/schedule', token],
    ['a malformed address', '/dashboard/payment/%E0%A4%A', token],
    ['an expired token', '/dashboard', accessTokenFor('pat@clinic.test', { expiresInSeconds: -60 })],
    ['no token', '/dashboard', null],
  ])('requests nothing for %s', (_, path, stored) => {
    worker();
    if (stored) localStorage.setItem('accessToken', stored);
    else localStorage.removeItem('accessToken');
    requestFirstData(path);
    expect(seen).toEqual([]);
  });

  it('a failed early request is the taker’s to handle: the app sees the network failure', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    requestFirstData('/dashboard');
    await expect(api('/bookings?email=pat%40clinic.test')).rejects.toMatchObject({ status: 0 });
  });
});
