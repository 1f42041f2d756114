import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { UnsecuredJWT } from 'jose';
import { issueAccessToken, type User } from '../src/auth.ts';
import { seedStatements } from '../../scripts/seed-data.ts';
import worker from '../src/index.ts';
import type { Env } from '../src/env.ts';

type IncomingRequest = Parameters<typeof worker.fetch>[0];

/** Calls the Worker as a browser on the clinic's origin would, with the real bindings (or some swapped). */
export async function call(path: string, init?: RequestInit, bindings: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`https://clinic.test${path}`, init) as IncomingRequest;
  // Cloudflare's edge sets the caller's address; give each test call one unless it names its own.
  if (!request.headers.has('CF-Connecting-IP')) request.headers.set('CF-Connecting-IP', '192.0.2.1');
  const response = await worker.fetch(request, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function seed(): Promise<void> {
  await env.DB.batch(seedStatements().map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
}

export async function count(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** An ID token as the Firebase Auth emulator issues it: unsigned (`alg: none`). */
export function emulatorIdToken(claims: { email: string; sub?: string; name?: string; exp?: number; aud?: string }): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${claims.aud ?? env.FIREBASE_PROJECT_ID}`,
    aud: claims.aud ?? env.FIREBASE_PROJECT_ID,
    sub: claims.sub ?? `uid-${claims.email}`,
    email: claims.email,
    name: claims.name,
    iat: now - 10,
    auth_time: now - 10,
    exp: claims.exp ?? now + 3600,
  };
  return new UnsecuredJWT(payload).encode();
}

/** The Worker's access token for a stored user, as GET /api/jwt would issue it. */
export async function accessTokenFor(email: string): Promise<string> {
  const user = await env.DB.prepare('SELECT id, email, name, role FROM users WHERE email = ?1').bind(email).first<User>();
  if (!user) throw new Error(`no user ${email}`);
  return issueAccessToken(user, env);
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export async function addUser(email: string, name: string, role: 'patient' | 'admin' = 'patient'): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare('INSERT INTO users (id, email, name, role) VALUES (?1, ?2, ?3, ?4)').bind(id, email, name, role).run();
  return id;
}

/** A paid appointment of `email`'s in a free slot `daysAgo` days ago (what entitles a patient to a review). */
export async function addPastVisit(email: string, daysAgo = 3): Promise<string> {
  const id = crypto.randomUUID();
  const day = new Date(Date.now() - daysAgo * 24 * 3600_000).toISOString().slice(0, 10);
  const { meta } = await env.DB.prepare(
    `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, price_cents, paid)
     SELECT ?1, t.id, t.name, ?2, s.slot, u.id, u.name, u.email, t.price_cents, 1
     FROM users u, treatments t JOIN treatment_slots s ON s.treatment_id = t.id
     WHERE u.email = ?3 AND NOT EXISTS (
       SELECT 1 FROM bookings b WHERE b.treatment_id = t.id AND b.appointment_date = ?2 AND b.slot = s.slot AND b.status = 'active')
     ORDER BY t.position, s.start_minute LIMIT 1`,
  )
    .bind(id, day, email)
    .run();
  if (meta.changes !== 1) throw new Error(`no free slot ${daysAgo} days ago for ${email}`);
  return id;
}
