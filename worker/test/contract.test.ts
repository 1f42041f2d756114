import { describe, expect, it } from 'vitest';
import { type RouteKey, routes } from '../../contract/routes.ts';
import { registeredRoutes } from '../src/index.ts';
import { call, checkAgainstContract } from './helpers.ts';

const keys = Object.keys(routes) as RouteKey[];
const split = (key: RouteKey) => key.split(' ') as [string, string];
/** A concrete address for a route's path: every parameter filled in. */
const addressOf = (path: string) => `/api${path.replace(/:\w+\+?/g, 'x')}`;

describe('the contract (contract/routes.ts) and the routes the Worker serves', () => {
  it('has every route the Worker registers, and no other', () => {
    expect([...registeredRoutes].sort()).toEqual([...keys].sort());
  });

  it('has each of its routes answered by the Worker (never 405 or "No such endpoint")', async () => {
    const unserved: string[] = [];
    for (const key of keys) {
      const [method, path] = split(key);
      const response = await call(addressOf(path), { method });
      const body = await response.json<{ message?: string }>().catch(() => ({ message: undefined }));
      if (response.status === 405 || body.message === 'No such endpoint') unserved.push(`${key} → ${response.status}`);
    }
    expect(unserved).toEqual([]);
  });

  it('lists, for every path, exactly the methods the Worker allows there (HEAD wherever GET is)', async () => {
    const methodsOf = new Map<string, string[]>();
    for (const key of keys) {
      const [method, path] = split(key);
      methodsOf.set(path, [...(methodsOf.get(path) ?? []), ...(method === 'GET' ? ['GET', 'HEAD'] : [method])]);
    }
    const allowed: Record<string, string | null> = {};
    const expected: Record<string, string> = {};
    for (const [path, methods] of methodsOf) {
      const response = await call(addressOf(path), { method: 'OPTIONS' });
      await response.body?.cancel();
      allowed[path] =
        response.status === 405 ? (response.headers.get('Allow') ?? '').split(', ').sort().join(', ') : null;
      expected[path] = methods.sort().join(', ');
    }
    expect(allowed).toEqual(expected);
  });
});

describe('the Worker tests’ check of every answer against the contract', () => {
  const request = (path: string, method = 'GET') => new Request(`https://clinic.test${path}`, { method });
  const json = (body: unknown, status = 200) => Response.json(body, { status });

  it('passes an answer the contract allows', async () => {
    await expect(
      checkAgainstContract(request('/api/users/admin/a@b.test'), json({ isAdmin: false })),
    ).resolves.toBeUndefined();
    const calendar = new Response('BEGIN:VCALENDAR', { headers: { 'Content-Type': 'text/calendar; charset=utf-8' } });
    await expect(checkAgainstContract(request('/api/bookings/b1/calendar.ics'), calendar)).resolves.toBeUndefined();
  });

  it('fails a renamed, missing, extra or mistyped field', async () => {
    const admin = request('/api/users/admin/a@b.test');
    await expect(checkAgainstContract(admin, json({ admin: false }))).rejects.toThrow(
      /GET \/users\/admin\/:target answered what its contract does not allow/,
    );
    await expect(checkAgainstContract(admin, json({ isAdmin: false, role: 'patient' }))).rejects.toThrow(/role/);
    await expect(checkAgainstContract(admin, json({ isAdmin: 'no' }))).rejects.toThrow(/isAdmin/);
    await expect(
      checkAgainstContract(request('/api/bookings', 'POST'), json({ acknowledged: true, insertedId: 'b1' }, 201)),
    ).rejects.toThrow(/message/);
  });

  it('fails a 2xx answer of a route the contract does not have, and a file of the wrong type', async () => {
    await expect(checkAgainstContract(request('/api/appointments'), json([]))).rejects.toThrow(/no such route/);
    await expect(checkAgainstContract(request('/api/images/doctors/x.png'), json({}))).rejects.toThrow(/image\/\*/);
  });

  it('leaves errors, HEAD and pages alone', async () => {
    await expect(
      checkAgainstContract(request('/api/bookings/b1'), json({ message: 'No such booking' }, 404)),
    ).resolves.toBeUndefined();
    await expect(
      checkAgainstContract(request('/api/bookings/b1', 'HEAD'), new Response(null)),
    ).resolves.toBeUndefined();
    await expect(checkAgainstContract(request('/login'), new Response('<html>'))).resolves.toBeUndefined();
  });
});
