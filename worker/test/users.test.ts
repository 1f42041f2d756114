import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, addUser, bearer, call, emulatorIdToken, seed } from './helpers.ts';

let tokens: Record<string, Record<string, string>>;
let promoteId: string;
let victimId: string;

beforeAll(async () => {
  await seed();
  await addUser('other@example.com', 'Other Patient');
  promoteId = await addUser('promote-me@example.com', 'Promote Me');
  victimId = await addUser('delete-me@example.com', 'Delete Me');
  const now = Math.floor(Date.now() / 1000);
  const claims = { email: 'admin@clinic.test' };
  const sign = (secret: string, exp: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('seed-admin')
      .setIssuer('dental-clinic')
      .setAudience('dental-clinic-api')
      .setIssuedAt(now - 3600)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret));
  tokens = {
    anonymous: {},
    malformed: bearer('not-a-token'),
    expired: bearer(await sign(env.JWT_SECRET!, now - 60)),
    'another secret': bearer(await sign('a-different-secret-of-at-least-32-chars', now + 600)),
    'a Firebase ID token': bearer(emulatorIdToken({ email: 'admin@clinic.test' })),
    patient: bearer(await accessTokenFor('patient@clinic.test')),
    'other patient': bearer(await accessTokenFor('other@example.com')),
    admin: bearer(await accessTokenFor('admin@clinic.test')),
  };
});

const denied = { anonymous: 401, malformed: 401, expired: 401, 'another secret': 401, 'a Firebase ID token': 401 };

// Who may do what: the status each caller gets. Writes target users of their own.
const matrix: { call: string; method: string; path: () => string; expect: Record<string, number> }[] = [
  {
    call: 'GET /api/users/admin/:email (own email)',
    method: 'GET',
    path: () => '/api/users/admin/patient@clinic.test',
    expect: { ...denied, patient: 200, 'other patient': 403, admin: 200 },
  },
  {
    call: 'GET /api/users',
    method: 'GET',
    path: () => '/api/users',
    expect: { ...denied, patient: 403, 'other patient': 403, admin: 200 },
  },
  {
    call: 'PUT /api/users/admin/:id',
    method: 'PUT',
    path: () => `/api/users/admin/${promoteId}`,
    expect: { ...denied, patient: 403, 'other patient': 403, admin: 200 },
  },
  {
    call: 'DELETE /api/users/:id',
    method: 'DELETE',
    path: () => `/api/users/${victimId}`,
    expect: { ...denied, patient: 403, 'other patient': 403, admin: 200 },
  },
];

describe('authorization matrix', () => {
  for (const row of matrix) {
    for (const [caller, status] of Object.entries(row.expect)) {
      it(`${row.call} as ${caller}: ${status}`, async () => {
        const response = await call(row.path(), { method: row.method, headers: tokens[caller] });
        expect(response.status).toBe(status);
        if (status >= 400) expect(await response.json()).toMatchObject({ message: expect.any(String) });
      });
    }
  }
});

describe('user management', () => {
  it('lists users with their roles', async () => {
    const response = await call('/api/users', { headers: tokens.admin });
    const users = await response.json<{ _id: string; email: string; role: string }[]>();
    expect(users.find((u) => u.email === 'admin@clinic.test')).toMatchObject({ _id: 'seed-admin', role: 'admin' });
    expect(users.find((u) => u.email === 'patient@clinic.test')?.role).toBe('patient');
  });

  it('finds users by name or email, 50 a page, saying how many match and where the next page is', async () => {
    for (let n = 0; n < 55; n += 1) await addUser(`pager-${String(n).padStart(2, '0')}@example.com`, `Pager ${n}`);
    const first = await call('/api/users?q=pager', { headers: tokens.admin });
    expect(first.status).toBe(200);
    expect(first.headers.get('X-Total-Count')).toBe('55');
    expect(first.headers.get('Link')).toBe('</api/users?q=pager&page=2>; rel="next"');
    expect(await first.json()).toHaveLength(50);
    const second = await call('/api/users?q=pager&page=2', { headers: tokens.admin });
    expect(second.headers.get('Link')).toBeNull();
    const last = await second.json<{ name: string }[]>();
    expect(last).toHaveLength(5);
    // By name: "Pager 0", "Pager 1", "Pager 10"… as text.
    expect(last.at(-1)?.name).toBe('Pager 9');
    const one = await (await call('/api/users?q=PAGER-07%40', { headers: tokens.admin })).json<{ name: string }[]>();
    expect(one.map((u) => u.name)).toEqual(['Pager 7']);
    for (const bad of ['page=0', 'page=abc', `q=${'x'.repeat(101)}`])
      expect((await call(`/api/users?${bad}`, { headers: tokens.admin })).status).toBe(400);
  });

  it('makes a patient admin once; a second time reports modifiedCount 0 with a message', async () => {
    const id = await addUser('promote@example.com', 'Promo Ted');
    const first = await call(`/api/users/admin/${id}`, { method: 'PUT', headers: tokens.admin });
    expect(await first.json()).toEqual({ acknowledged: true, modifiedCount: 1, message: 'Promo Ted is now an admin' });
    const again = await call(`/api/users/admin/${id}`, { method: 'PUT', headers: tokens.admin });
    expect(await again.json()).toEqual({
      acknowledged: true,
      modifiedCount: 0,
      message: 'Promo Ted is already an admin',
    });
    const status = await call('/api/users/admin/promote@example.com', { headers: tokens.admin });
    expect(await status.json()).toEqual({ isAdmin: true });
  });

  it('a demoted admin loses admin access at once, with the same token', async () => {
    const id = await addUser('temp-admin@example.com', 'Temp Admin', 'admin');
    const token = bearer(await accessTokenFor('temp-admin@example.com'));
    expect((await call('/api/users', { headers: token })).status).toBe(200);
    await env.DB.prepare("UPDATE users SET role = 'patient' WHERE id = ?1").bind(id).run();
    expect((await call('/api/users', { headers: token })).status).toBe(403);
  });

  it('deletes a user, and answers 404 for an unknown one', async () => {
    const id = await addUser('leaving@example.com', 'Leaving Soon');
    const response = await call(`/api/users/${id}`, { method: 'DELETE', headers: tokens.admin });
    expect(await response.json()).toEqual({ acknowledged: true, deletedCount: 1, cancelled: [], notRefunded: [] });
    const again = await call(`/api/users/${id}`, { method: 'DELETE', headers: tokens.admin });
    expect(again.status).toBe(404);
    const promote = await call('/api/users/admin/no-such-id', { method: 'PUT', headers: tokens.admin });
    expect(promote.status).toBe(404);
  });

  it('an admin cannot delete their own account', async () => {
    const response = await call('/api/users/seed-admin', { method: 'DELETE', headers: tokens.admin });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ acknowledged: false, message: 'You cannot delete your own account' });
    expect(await env.DB.prepare("SELECT id FROM users WHERE id = 'seed-admin'").first()).not.toBeNull();
  });

  it('a deleted user’s access token stops working', async () => {
    const id = await addUser('ghost@example.com', 'Ghost');
    const token = bearer(await accessTokenFor('ghost@example.com'));
    await call(`/api/users/${id}`, { method: 'DELETE', headers: tokens.admin });
    const response = await call('/api/users/admin/ghost@example.com', { headers: token });
    expect(response.status).toBe(401);
  });
});
