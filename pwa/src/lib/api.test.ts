import { beforeEach, describe, expect, it } from 'vitest';
import { currentUser, fakeFirebase } from '../testing/fake-firebase.ts';
import { describeRequest, json, stubFetch } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { ApiError } from './http.ts';

let seen: { request: string; authorization: string | null }[];

/** A Worker whose access tokens `valid` are accepted on GET /api/bookings; /api/jwt issues `issued` in turn. */
function worker({ valid, issued }: { valid: string[]; issued: string[] }) {
  seen = [];
  const tokens = [...issued];
  return stubFetch((request) => {
    const authorization = request.headers.get('Authorization');
    seen.push({ request: describeRequest(request), authorization });
    const url = new URL(request.url);
    if (url.pathname === '/api/jwt') return json({ accessToken: tokens.shift() });
    if (valid.some((token) => authorization === `Bearer ${token}`)) return json([{ _id: 'b1' }]);
    return json({ message: 'Your session has expired; please sign in again' }, 401);
  });
}

beforeEach(() => {
  fakeFirebase.signInAs('pat@clinic.test');
  localStorage.setItem('accessToken', 'expired');
});

describe('api client renewal of the access token', () => {
  it('on a 401 gets a fresh ID token, a new access token, stores it and retries the call once', async () => {
    worker({ valid: ['renewed'], issued: ['renewed'] });

    await expect(api('/bookings?email=pat%40clinic.test')).resolves.toEqual([{ _id: 'b1' }]);

    expect(seen).toEqual([
      { request: 'GET /api/bookings?email=pat%40clinic.test', authorization: 'Bearer expired' },
      // getIdToken(true): the fake numbers forced refreshes, so :1 proves a fresh ID token was minted
      { request: 'GET /api/jwt?email=pat%40clinic.test', authorization: 'Bearer id-token:pat@clinic.test:1' },
      { request: 'GET /api/bookings?email=pat%40clinic.test', authorization: 'Bearer renewed' },
    ]);
    expect(localStorage.getItem('accessToken')).toBe('renewed');
  });

  it('throws the second 401 instead of renewing again (no loop)', async () => {
    worker({ valid: [], issued: ['also-refused', 'never-asked-for'] });

    const error = await api('/bookings').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toBe('Your session has expired; please sign in again');
    expect(seen.map((s) => s.request)).toEqual([
      'GET /api/bookings',
      'GET /api/jwt?email=pat%40clinic.test',
      'GET /api/bookings',
    ]);
  });

  it('shares one renewal between calls refused at the same time', async () => {
    worker({ valid: ['renewed'], issued: ['renewed', 'second-renewal'] });

    const results = await Promise.all([api('/bookings'), api('/bookings'), api('/bookings')]);

    expect(results).toEqual([[{ _id: 'b1' }], [{ _id: 'b1' }], [{ _id: 'b1' }]]);
    expect(seen.filter((s) => s.request.startsWith('GET /api/jwt'))).toHaveLength(1);
    expect(localStorage.getItem('accessToken')).toBe('renewed');
  });

  it('does not renew when nobody is signed in to Firebase', async () => {
    fakeFirebase.reset();
    worker({ valid: [], issued: ['x'] });

    await expect(api('/bookings')).rejects.toMatchObject({ status: 401 });
    expect(currentUser).toHaveBeenCalled();
    expect(seen.map((s) => s.request)).toEqual(['GET /api/bookings']);
  });

  it('never renews a call that brings its own Authorization (an ID token)', async () => {
    worker({ valid: [], issued: ['x'] });

    await expect(
      api('/users', { method: 'POST', body: '{}', headers: { Authorization: 'Bearer id-token' } }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(seen).toEqual([{ request: 'POST /api/users', authorization: 'Bearer id-token' }]);
  });

  it('does not renew on other errors', async () => {
    seen = [];
    stubFetch((request) => {
      seen.push({ request: describeRequest(request), authorization: request.headers.get('Authorization') });
      return json({ message: 'Only an admin may do this' }, 403);
    });
    await expect(api('/users')).rejects.toMatchObject({ status: 403, message: 'Only an admin may do this' });
    expect(seen).toHaveLength(1);
  });
});
