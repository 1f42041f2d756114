import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_EMAIL_FIRST } from '../src/people/auth.ts';
import { clinicNow } from '../src/platform/clinic-time.ts';
import { accessTokenFor, addUser, bearer, call, emulatorIdToken, postJson, seed } from './helpers.ts';

const EMAIL_TAKEN = 'An account with this email already exists; contact the clinic';
const VERIFY_BEFORE_SIGN_IN =
  'Please verify your email address first: open the link we emailed you, then sign in again';
const RECORD_WAITS =
  'The clinic already has your record from a booking by phone. Open the link we emailed you to confirm this address is yours, then sign in: your appointments will be there.';

type IdClaims = Parameters<typeof emulatorIdToken>[0];

/** GET /api/jwt with an emulator ID token, as the PWA trades it after signing in. */
function exchange(claims: IdClaims, bindings = {}) {
  return call(
    `/api/jwt?email=${encodeURIComponent(claims.email)}`,
    { headers: bearer(emulatorIdToken(claims)) },
    bindings,
  );
}

async function accessToken(claims: IdClaims, bindings = {}): Promise<Record<string, string>> {
  const response = await exchange(claims, bindings);
  expect(response.status, await response.clone().text()).toBe(200);
  return bearer((await response.json<{ accessToken: string }>()).accessToken);
}

/** POST /api/users with an emulator ID token, as the PWA stores a new account at sign-up. */
function signUp(claims: IdClaims & { name: string }, bindings = {}) {
  return call(
    '/api/users',
    {
      method: 'POST',
      headers: { ...bearer(emulatorIdToken(claims)), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: claims.name, email: claims.email }),
    },
    bindings,
  );
}

function userRow(email: string) {
  return env.DB.prepare(
    'SELECT id, name, role, firebase_uid, email_verified, token_version FROM users WHERE email = ?1',
  )
    .bind(email)
    .first<{
      id: string;
      name: string;
      role: string;
      firebase_uid: string | null;
      email_verified: number;
      token_version: number;
    }>();
}

const inDays = (n: number) => format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), n), 'yyyy-MM-dd');

function book(headers: Record<string, string>, slot = '09.00 AM - 09.30 AM', days = 7) {
  return postJson(
    '/api/bookings',
    { treatment: 'Teeth Cleaning', appointmentDate: inDays(days), slot, phone: '555-0100' },
    headers,
  );
}

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

describe('a user is the Firebase uid, not the email', () => {
  it('a new Firebase account with the email of a deleted one inherits nothing: 409, no token, no data', async () => {
    // The old patient: a booking with a phone number, and a payment for it.
    const oldEmail = 'leaver@example.com';
    const oldId = await addUser(oldEmail, 'Lee Ver', 'patient', { uid: 'uid-deleted-account' });
    const booked = await book(bearer(await accessTokenFor(oldEmail)));
    expect(booked.status).toBe(201);
    const { insertedId: bookingId } = await booked.json<{ insertedId: string }>();
    await env.DB.prepare(
      "INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider) VALUES ('pay-1', 'txn-leaver', ?1, ?2, 8000, 'demo')",
    )
      .bind(bookingId, oldEmail)
      .run();
    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(bookingId).run();

    // The Firebase account was deleted; someone signs up again with the same address, verified or not.
    for (const verified of [false, true]) {
      const newcomer = { email: oldEmail, sub: 'uid-new-account', verified, name: 'New Comer' };
      const stored = await signUp(newcomer);
      expect(stored.status).toBe(409);
      expect(await stored.json()).toEqual({ acknowledged: false, message: EMAIL_TAKEN });
      const token = await exchange(newcomer);
      expect(token.status).toBe(409);
      expect(await token.json()).toEqual({ message: EMAIL_TAKEN });
    }
    expect(await userRow(oldEmail)).toMatchObject({ id: oldId, name: 'Lee Ver', firebase_uid: 'uid-deleted-account' });

    // The clinic deletes the old record; the newcomer then starts with an empty one.
    expect((await call(`/api/users/${oldId}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    expect((await signUp({ email: oldEmail, sub: 'uid-new-account', name: 'New Comer' })).status).toBe(201);
    const mine = await call(`/api/bookings?email=${oldEmail}`, {
      headers: await accessToken({ email: oldEmail, sub: 'uid-new-account' }),
    });
    expect(await mine.json()).toEqual([]);
    expect(await userRow(oldEmail)).toMatchObject({ name: 'New Comer', firebase_uid: 'uid-new-account' });
  });

  it('the account’s owner keeps getting their record, by uid', async () => {
    const id = await addUser('owner@example.com', 'Oona Owner');
    const token = await accessToken({ email: 'owner@example.com' });
    expect(decodeJwt(token.Authorization!.slice(7)).sub).toBe(id);
    expect((await signUp({ email: 'owner@example.com', name: 'Oona Owner' })).status).toBe(200);
  });

  it('a record from before uids were stored is bound by the first verified sign-in, and only then', async () => {
    const id = await addUser('legacy@example.com', 'Lena Legacy', 'patient', { uid: null, verified: false });
    const unverified = await exchange({ email: 'legacy@example.com', sub: 'uid-legacy', verified: false });
    expect(unverified.status).toBe(403);
    expect(await unverified.json()).toEqual({ message: RECORD_WAITS, recordWaitsForVerification: true });
    const unverifiedSignUp = await signUp({
      email: 'legacy@example.com',
      sub: 'uid-legacy',
      verified: false,
      name: 'Lena',
    });
    expect(unverifiedSignUp.status).toBe(403);
    expect(await unverifiedSignUp.json()).toEqual({
      acknowledged: false,
      message: RECORD_WAITS,
      recordWaitsForVerification: true,
    });
    expect(await userRow('legacy@example.com')).toMatchObject({
      firebase_uid: null,
      email_verified: 0,
      name: 'Lena Legacy',
    });

    const token = await accessToken({ email: 'legacy@example.com', sub: 'uid-legacy' });
    expect(decodeJwt(token.Authorization!.slice(7)).sub).toBe(id);
    expect(await userRow('legacy@example.com')).toMatchObject({ id, firebase_uid: 'uid-legacy', email_verified: 1 });
    expect((await exchange({ email: 'legacy@example.com', sub: 'uid-someone-else' })).status).toBe(409);
  });

  it('concurrent first sign-ins of one account make one record', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => exchange({ email: 'twice@example.com', sub: 'uid-twice' })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const subjects = await Promise.all(
      answers.map(async (r) => decodeJwt((await r.json<{ accessToken: string }>()).accessToken).sub),
    );
    expect(new Set(subjects).size).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = 'twice@example.com'").first('n')).toBe(
      1,
    );
  });

  it('concurrent sign-ins of different accounts with one email: exactly one gets the record', async () => {
    const uids = Array.from({ length: 6 }, (_, i) => `uid-contender-${i}`);
    const answers = await Promise.all(uids.map((sub) => exchange({ email: 'contended@example.com', sub })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = uids[answers.findIndex((r) => r.status === 200)];
    expect(await userRow('contended@example.com')).toMatchObject({ firebase_uid: winner });
  });
});

describe('an email counts only once verified', () => {
  it('email_verified is stored at sign-up and refreshed on every exchange', async () => {
    const who = { email: 'verifies-later@example.com', name: 'Vera Later' };
    expect((await signUp({ ...who, verified: false })).status).toBe(201);
    expect((await userRow(who.email))?.email_verified).toBe(0);
    await accessToken({ ...who, verified: true });
    expect((await userRow(who.email))?.email_verified).toBe(1);
  });

  it('an unverified account may browse and see its bookings, but not book or write a review (403)', async () => {
    const headers = await accessToken({ email: 'unverified@example.com', verified: false });
    expect((await call('/api/bookings?email=unverified@example.com', { headers })).status).toBe(200);
    expect((await call('/api/users/admin/unverified@example.com', { headers })).status).toBe(200);

    const booking = await book(headers, '10.00 AM - 10.30 AM');
    expect(booking.status).toBe(403);
    expect(await booking.json()).toEqual({ acknowledged: false, message: VERIFY_EMAIL_FIRST });
    const review = await postJson('/api/reviews', { review: 'A very fine clinic indeed.', location: 'Town' }, headers);
    expect(review.status).toBe(403);
    expect(await review.json()).toEqual({ acknowledged: false, message: VERIFY_EMAIL_FIRST });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM bookings WHERE email = 'unverified@example.com'").first('n'),
    ).toBe(0);

    // Verified in Firebase, then a fresh exchange: the same access token now books.
    await accessToken({ email: 'unverified@example.com', verified: true });
    expect((await book(headers, '10.00 AM - 10.30 AM')).status).toBe(201);
  });

  it('ADMIN_EMAILS promotes a verified email only: an unverified sign-up with that address gets no token', async () => {
    const bootstrap = { ADMIN_EMAILS: 'admin@clinic.test, head@clinic.test' };
    const squatter = { email: 'head@clinic.test', sub: 'uid-head', verified: false, name: 'Not The Head' };
    const stored = await signUp(squatter, bootstrap);
    expect(stored.status).toBe(403);
    expect(await stored.json()).toEqual({ acknowledged: false, message: VERIFY_BEFORE_SIGN_IN });
    const token = await exchange(squatter, bootstrap);
    expect(token.status).toBe(403);
    expect(await token.json()).toEqual({ message: VERIFY_BEFORE_SIGN_IN });
    expect(await userRow('head@clinic.test')).toBeNull();

    const headers = await accessToken({ ...squatter, verified: true }, bootstrap);
    expect(await userRow('head@clinic.test')).toMatchObject({ role: 'admin', email_verified: 1 });
    expect((await call('/api/users', { headers })).status).toBe(200);
  });

  it('an ADMIN_EMAILS address stored as a patient is promoted at the exchange where it is verified', async () => {
    await addUser('deputy@clinic.test', 'Dee Puty', 'patient', { verified: false });
    await accessToken({ email: 'deputy@clinic.test' }, { ADMIN_EMAILS: 'deputy@clinic.test' });
    expect(await userRow('deputy@clinic.test')).toMatchObject({ role: 'admin', email_verified: 1 });
  });

  it('an admin cannot make an unverified user admin (403), and can once they have verified', async () => {
    const id = await addUser('not-yet@example.com', 'Nat Yet', 'patient', { verified: false });
    const refused = await call(`/api/users/admin/${id}`, { method: 'PUT', headers: admin });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message: 'Nat Yet has not verified their email address yet; they can become an admin once they have',
    });
    expect((await userRow('not-yet@example.com'))?.role).toBe('patient');

    await accessToken({ email: 'not-yet@example.com', verified: true });
    const promoted = await call(`/api/users/admin/${id}`, { method: 'PUT', headers: admin });
    expect(await promoted.json()).toMatchObject({ modifiedCount: 1 });
  });
});

describe('access tokens can be revoked', () => {
  it('carry the user’s email, role, verified state and token version', async () => {
    const token = await accessToken({ email: 'claims@example.com', verified: false });
    expect(decodeJwt(token.Authorization!.slice(7))).toMatchObject({
      email: 'claims@example.com',
      role: 'patient',
      verified: false,
      ver: 0,
    });
  });

  it('sign-out (POST /api/sessions/revoke) ends every access token the user had, at once', async () => {
    const phone = await accessToken({ email: 'two-devices@example.com' });
    const laptop = await accessToken({ email: 'two-devices@example.com' });
    const revoked = await call('/api/sessions/revoke', { method: 'POST', headers: laptop });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ acknowledged: true });
    for (const headers of [phone, laptop]) {
      const response = await call('/api/bookings', { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Your session has ended; please sign in again' });
    }
    const again = await accessToken({ email: 'two-devices@example.com' });
    expect((await call('/api/bookings', { headers: again })).status).toBe(200);
    expect((await call('/api/sessions/revoke', { method: 'POST' })).status).toBe(401);
  });

  it('making a user admin ends their older access tokens', async () => {
    const before = await accessToken({ email: 'rising@example.com' });
    const { _id } = (
      await (await call('/api/users', { headers: admin })).json<{ _id: string; email: string }[]>()
    ).find((u) => u.email === 'rising@example.com')!;
    expect((await call(`/api/users/admin/${_id}`, { method: 'PUT', headers: admin })).status).toBe(200);
    expect((await call('/api/bookings', { headers: before })).status).toBe(401);
    const after = await accessToken({ email: 'rising@example.com' });
    expect(decodeJwt(after.Authorization!.slice(7))).toMatchObject({ role: 'admin', ver: 1 });
    expect((await call('/api/users', { headers: after })).status).toBe(200);
  });

  it('a deleted user’s access token stays dead, even once the same account signs in again', async () => {
    const before = await accessToken({ email: 'returning@example.com' });
    const { id } = (await userRow('returning@example.com'))!;
    expect((await call(`/api/users/${id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    expect((await call('/api/bookings', { headers: before })).status).toBe(401);
    await accessToken({ email: 'returning@example.com' });
    expect((await call('/api/bookings', { headers: before })).status).toBe(401);
  });
});
