import { env } from 'cloudflare:test';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_CLOCK_SKEW_SECONDS, verifyIdToken } from '../src/people/auth.ts';
import { HttpError } from '../src/platform/http.ts';
import { bearer, call, count, emulatorIdToken, postJson, seed } from './helpers.ts';

beforeAll(seed);

describe('Firebase ID token verification (RS256, keys generated here, no network)', () => {
  const projectId = 'clinic-prod';
  let signingKey: CryptoKey;
  let otherKey: CryptoKey;
  let keys: ReturnType<typeof createLocalJWKSet>;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    otherKey = (await generateKeyPair('RS256')).privateKey;
    keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' }] });
  });

  function idToken(
    overrides: { aud?: string; iss?: string; exp?: number; iat?: number; key?: CryptoKey; sub?: string } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: 'Pat@Example.com', email_verified: true, name: 'Pat' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(overrides.iss ?? `https://securetoken.google.com/${projectId}`)
      .setAudience(overrides.aud ?? projectId)
      .setSubject(overrides.sub ?? 'uid-1')
      .setIssuedAt(overrides.iat ?? now - 60)
      .setExpirationTime(overrides.exp ?? now + 3600)
      .sign(overrides.key ?? signingKey);
  }

  const verify = (token: string, emulator = false) => verifyIdToken(token, { projectId, emulator, keys });

  it('accepts a good token and reads its uid, email and whether the email is verified', async () => {
    expect(await verify(await idToken())).toEqual({
      uid: 'uid-1',
      email: 'pat@example.com',
      emailVerified: true,
      name: 'Pat',
    });
    const unverified = emulatorIdToken({ email: 'pat@example.com', aud: projectId, verified: false });
    expect(await verify(unverified, true)).toMatchObject({ emailVerified: false });
  });

  it('accepts a token issued a little ahead of this clock, and refuses one issued further in the future (401)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await verify(await idToken({ iat: now + 60 }))).uid).toBe('uid-1');
    for (const token of [
      await idToken({ iat: now + MAX_CLOCK_SKEW_SECONDS + 60, exp: now + 7200 }),
      emulatorIdToken({ email: 'pat@example.com', aud: projectId, iat: now + MAX_CLOCK_SKEW_SECONDS + 60 }),
    ]) {
      const error = await verify(token, true).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(401);
    }
  });

  describe('when Google’s key server cannot be reached', () => {
    const keyServer = new URL('https://keys.example.test/jwks');
    const failing: [string, Parameters<typeof createRemoteJWKSet>[1]][] = [
      ['the request fails', { [customFetch]: () => Promise.reject(new TypeError('Network connection lost.')) }],
      ['it answers 500', { [customFetch]: async () => new Response('oops', { status: 500 }) }],
      [
        'it does not answer in time',
        {
          timeoutDuration: 20,
          [customFetch]: (_url: string, init: RequestInit) =>
            new Promise<Response>((_, reject) =>
              init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
            ),
        },
      ],
    ];
    for (const [what, options] of failing) {
      it(`answers 503 with Retry-After when ${what}`, async () => {
        const keys = createRemoteJWKSet(keyServer, options);
        const error = await verifyIdToken(await idToken(), { projectId, emulator: false, keys }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(HttpError);
        expect((error as HttpError).status).toBe(503);
        expect(Number((error as HttpError).headers['Retry-After'])).toBeGreaterThan(0);
      });
    }

    it('still refuses a token no key of a reachable server matches with 401', async () => {
      const jwks = {
        keys: [{ ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'k2', alg: 'RS256' }],
      };
      const keys = createRemoteJWKSet(keyServer, { [customFetch]: async () => Response.json(jwks) });
      const error = await verifyIdToken(await idToken(), { projectId, emulator: false, keys }).catch((e: unknown) => e);
      expect((error as HttpError).status).toBe(401);
    });
  });

  const refusals: [string, () => Promise<string>][] = [
    ['a wrong audience', () => idToken({ aud: 'someone-else' })],
    ['a wrong issuer', () => idToken({ iss: 'https://securetoken.google.com/someone-else' })],
    ['an expired token', () => idToken({ exp: Math.floor(Date.now() / 1000) - 60 })],
    ['a token signed with another key', () => idToken({ key: otherKey })],
    [
      'an unsigned token while emulator mode is off',
      async () => emulatorIdToken({ email: 'pat@example.com', aud: projectId }),
    ],
    ['garbage', async () => 'not.a.token'],
  ];
  for (const [what, make] of refusals) {
    it(`refuses ${what} with 401`, async () => {
      const error = await verify(await make()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(401);
    });
  }

  it('accepts an unsigned emulator token only in emulator mode', async () => {
    const token = emulatorIdToken({ email: 'pat@example.com', aud: projectId });
    expect((await verify(token, true)).email).toBe('pat@example.com');
  });
});

describe('GET /api/jwt', () => {
  it('trades an ID token for that email for a short-lived access token', async () => {
    const response = await call('/api/jwt?email=patient@clinic.test', {
      headers: bearer(emulatorIdToken({ email: 'patient@clinic.test' })),
    });
    expect(response.status).toBe(200);
    const { accessToken } = await response.json<{ accessToken: string }>();
    const { payload } = await jwtVerify(accessToken, new TextEncoder().encode(env.JWT_SECRET));
    expect(payload.sub).toBe('seed-patient');
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(30 * 60);
  });

  it('refuses a token for another email with 403', async () => {
    const response = await call('/api/jwt?email=admin@clinic.test', {
      headers: bearer(emulatorIdToken({ email: 'patient@clinic.test' })),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'This sign-in belongs to another email' });
  });

  it('refuses a request without a token (401), and without an email (400)', async () => {
    expect((await call('/api/jwt?email=patient@clinic.test')).status).toBe(401);
    const noEmail = await call('/api/jwt', { headers: bearer(emulatorIdToken({ email: 'patient@clinic.test' })) });
    expect(noEmail.status).toBe(400);
  });

  it('refuses unsigned tokens unless the emulator is configured AND the local-only flag says "true"', async () => {
    for (const bindings of [
      { FIREBASE_AUTH_EMULATOR_HOST: undefined },
      { ALLOW_UNSIGNED_EMULATOR_TOKENS: undefined },
      { ALLOW_UNSIGNED_EMULATOR_TOKENS: '1' },
      { FIREBASE_AUTH_EMULATOR_HOST: undefined, ALLOW_UNSIGNED_EMULATOR_TOKENS: undefined },
    ]) {
      const response = await call(
        '/api/jwt?email=patient@clinic.test',
        { headers: bearer(emulatorIdToken({ email: 'patient@clinic.test' })) },
        bindings,
      );
      expect(response.status, JSON.stringify(bindings)).toBe(401);
    }
  });

  describe('with Google’s key server unreachable', () => {
    afterEach(() => vi.restoreAllMocks());

    it('answers 503 with Retry-After and a plain message, not 401 or 500', async () => {
      const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Network connection lost.'));
      const { privateKey } = await generateKeyPair('RS256');
      const now = Math.floor(Date.now() / 1000);
      const signed = await new SignJWT({ email: 'patient@clinic.test', email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: 'google-key' })
        .setIssuer(`https://securetoken.google.com/${env.FIREBASE_PROJECT_ID}`)
        .setAudience(env.FIREBASE_PROJECT_ID)
        .setSubject('seed-patient-uid')
        .setIssuedAt(now - 10)
        .setExpirationTime(now + 3600)
        .sign(privateKey);
      const response = await call('/api/jwt?email=patient@clinic.test', { headers: bearer(signed) });
      expect(String(fetchSpy.mock.calls[0]?.[0])).toContain('googleapis.com');
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await response.json()).toEqual({
        message: 'We cannot check your sign-in right now; please try again in a minute',
      });
    });
  });

  it('stores a first-time (Google) user and makes ADMIN_EMAILS admins', async () => {
    const response = await call(
      '/api/jwt?email=boss@clinic.test',
      {
        headers: bearer(emulatorIdToken({ email: 'boss@clinic.test', name: 'The Boss' })),
      },
      { ADMIN_EMAILS: 'someone@else.test, Boss@Clinic.test' },
    );
    expect(response.status).toBe(200);
    const row = await env.DB.prepare("SELECT name, role FROM users WHERE email = 'boss@clinic.test'").first();
    expect(row).toEqual({ name: 'The Boss', role: 'admin' });
  });
});

describe('POST /api/users', () => {
  const token = () => bearer(emulatorIdToken({ email: 'newbie@example.com' }));

  it('stores a new user as a patient, ignoring a role sent by the client', async () => {
    const response = await postJson(
      '/api/users',
      { name: 'New Bie', email: 'newbie@example.com', role: 'admin' },
      token(),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ acknowledged: true, insertedId: expect.any(String) });
    const row = await env.DB.prepare("SELECT name, role FROM users WHERE email = 'newbie@example.com'").first();
    expect(row).toEqual({ name: 'New Bie', role: 'patient' });
  });

  it('answers an existing user without duplicating them', async () => {
    const before = await count('users');
    const response = await postJson('/api/users', { name: 'New Bie', email: 'newbie@example.com' }, token());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ acknowledged: true, modifiedCount: 0 });
    expect(await count('users')).toBe(before);
  });

  it('refuses to store someone else (403) and bad bodies (400)', async () => {
    const other = await postJson('/api/users', { name: 'Evil', email: 'admin@clinic.test' }, token());
    expect(other.status).toBe(403);
    const bad = await postJson('/api/users', { name: '', email: 'newbie@example.com' }, token());
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ acknowledged: false, message: 'name is required' });
  });
});
