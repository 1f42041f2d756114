/**
 * Who may call each route is in the route table (contract/routes.ts). This walks the whole table and
 * calls every route as nobody, as a patient, as another patient (on the first one's booking, entry
 * and offer) and as an admin.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Audience, type RouteKey, routes } from '../../contract/routes.ts';
import { accessTokenFor, bearer, bookAs, call, clinicDay, newPatient, seed, slotsOf } from './helpers.ts';

type Caller = Record<string, string>;
let admin: Caller;
let owner: Awaited<ReturnType<typeof newPatient>>;
let stranger: Awaited<ReturnType<typeof newPatient>>;
/** What the path parameters of the owner's routes name. */
const mine = { booking: '', entry: '', offer: '' };

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  owner = await newPatient('owner');
  stranger = await newPatient('stranger');
  const date = clinicDay(4);
  const [slot] = await slotsOf(date, 'teeth-cleaning');
  const booked = await bookAs(owner.auth, { treatment: 'Teeth Cleaning', appointmentDate: date, slot: slot ?? '' });
  mine.booking = (await booked.json<{ insertedId: string }>()).insertedId;
  // A waitlist entry with an offer of the owner's, written as the cron would leave them.
  mine.entry = crypto.randomUUID();
  mine.offer = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO waitlist (id, user_id, treatment_id, from_date, to_date, created_at)
       VALUES (?1, ?2, 'root-canal', ?3, ?3, ?4)`,
    ).bind(mine.entry, owner.id, clinicDay(5), new Date().toISOString()),
    env.DB.prepare(
      `INSERT INTO waitlist_offers (id, entry_id, treatment_id, day, start_minute, duration_minutes, slot, doctor_id,
         chair_id, expires_at, created_at)
       VALUES (?1, ?2, 'root-canal', ?3, 600, 90, '10.00 AM - 11.30 AM', 'dr-kwame-mensah', 'chair-1', ?4, ?5)`,
    ).bind(
      mine.offer,
      mine.entry,
      clinicDay(5),
      new Date(Date.now() + 3600_000).toISOString(),
      new Date().toISOString(),
    ),
  ]);
});

/** A route's path with its parameters: the owner's own where the route is theirs, else an id nobody has. */
function pathOf(key: RouteKey): string {
  const [method, path] = key.split(' ') as [string, string];
  return `/api${path}`
    .replace(/\/bookings\/:id/, `/bookings/${mine.booking}`)
    .replace('/waitlist/offers/:id', `/waitlist/offers/${mine.offer}`)
    .replace('/waitlist/:id', `/waitlist/${mine.entry}`)
    .replace('/users/admin/:target', `/users/admin/${method === 'GET' ? owner.email : 'walk-unknown'}`)
    .replace(':key+', 'doctors/walkunknown1.png')
    .replace(/:\w+/g, 'walk-unknown');
}

/**
 * A body each owner route with a JSON body accepts: the router parses input before the handler checks
 * ownership, so a stranger with a malformed body gets a 400 that says nothing of the booking; only a valid
 * body reaches the ownership check this walk is about.
 */
const VALID_BODIES: Partial<Record<RouteKey, object>> = {
  'PUT /bookings/:id/forms/:formId': { answers: {} },
  'POST /bookings/:id/reschedule': { appointmentDate: clinicDay(6), start: '09:00' },
  'PUT /users/me/dependants/:id': { name: 'Walk' },
  'POST /users/me/dependants/:id/invite': { email: 'walk@example.com' },
};

function send(key: RouteKey, caller: Caller, body = VALID_BODIES[key] ?? {}): Promise<Response> {
  const [method] = key.split(' ') as [string];
  const writes = method === 'POST' || method === 'PUT';
  return call(pathOf(key), {
    method,
    headers: { ...caller, ...(writes ? { 'Content-Type': 'application/json' } : {}) },
    ...(writes ? { body: JSON.stringify(body) } : {}),
  });
}

const all = Object.entries(routes) as [RouteKey, { audience: Audience }][];
/** Signing out ends the caller's tokens, and deleting one's account the caller: each walked on its own. */
const SIGN_OUT = 'POST /sessions/revoke';
const DELETE_ME = 'DELETE /users/me';
const table = all.filter(([key]) => key !== SIGN_OUT && key !== DELETE_ME);
const signedIn: Audience[] = ['patient', 'owner', 'admin'];

describe('every route admits exactly its audience', () => {
  it('names an audience for every route', () => {
    expect(all.filter(([, route]) => !route.audience)).toEqual([]);
    expect(new Set(all.map(([, route]) => route.audience))).toEqual(
      new Set(['public', 'identity', 'signed', 'patient', 'owner', 'admin']),
    );
  });

  it('refuses nobody (no token) on every route that needs one, with 401, and never answers 5xx', async () => {
    for (const [key, { audience }] of table) {
      const status = (await send(key, {})).status;
      expect(status, key).toBeLessThan(500);
      if ([...signedIn, 'identity'].includes(audience)) expect(status, key).toBe(401);
      else if (audience === 'signed') expect(status, key).toBeGreaterThanOrEqual(400);
      else expect([401, 403], key).not.toContain(status);
    }
  });

  it('refuses a patient every admin route with 403, and lets them call their own', async () => {
    for (const [key, { audience }] of table) {
      if (audience === 'identity' || audience === 'signed' || audience === 'public') continue;
      const status = (await send(key, owner.auth)).status;
      expect(status, key).toBeLessThan(500);
      if (audience === 'admin') expect(status, key).toBe(403);
      else expect([401, 403], key).not.toContain(status);
    }
  });

  it("refuses another patient the owner's booking, waitlist entry and offer (403 or 404), and never answers 2xx", async () => {
    for (const [key, { audience }] of table) {
      if (audience !== 'owner') continue;
      const status = (await send(key, stranger.auth)).status;
      expect([403, 404], key).toContain(status);
      // A malformed body is refused as such, telling nothing more.
      if (VALID_BODIES[key]) expect((await send(key, stranger.auth, [])).status, key).toBe(400);
    }
  });

  it('lets an admin call every admin route, and never answers 5xx', async () => {
    for (const [key, { audience }] of table) {
      if (audience !== 'admin' && audience !== 'patient') continue;
      const status = (await send(key, admin)).status;
      expect(status, key).toBeLessThan(500);
      expect([401, 403], key).not.toContain(status);
    }
  });
});

describe('deleting one’s own account', () => {
  it('needs a signed-in patient, ends them, and is no way for an admin to delete themselves', async () => {
    expect((await send(DELETE_ME, {})).status).toBe(401);
    expect((await send(DELETE_ME, admin)).status).toBe(409);
    const leaving = await newPatient('leaving');
    expect((await send(DELETE_ME, leaving.auth)).status).toBe(200);
    expect((await send(DELETE_ME, leaving.auth)).status).toBe(401);
  });
});

describe('signing out', () => {
  it('needs a signed-in caller, and ends that caller’s tokens', async () => {
    expect((await send(SIGN_OUT, {})).status).toBe(401);
    expect((await send(SIGN_OUT, stranger.auth)).status).toBe(200);
    expect((await send(SIGN_OUT, stranger.auth)).status).toBe(401);
  });
});
