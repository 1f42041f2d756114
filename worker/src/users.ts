import * as v from 'valibot';
import { issueAccessToken, requireAdmin, requireIdentity, requireUser, type Identity, type User } from './auth.ts';
import type { Env } from './env.ts';
import { HttpError, email, json, readJson, text } from './http.ts';
import { clientAddress, spend } from './rate-limit.ts';

type Params = { params: Record<string, string> };

const NewUser = v.object({ name: text('name', 100), email: email('email') });

function isBootstrapAdmin(env: Env, address: string): boolean {
  return env.ADMIN_EMAILS.split(',').some((admin) => admin.trim().toLowerCase() === address);
}

const toUser = (u: User) => ({ _id: u.id, name: u.name, email: u.email, role: u.role });

/** Stores the user if new (ADMIN_EMAILS become admins); an existing user keeps their role. */
async function ensureUser(env: Env, identity: Identity, name: string): Promise<{ user: User; created: boolean }> {
  const address = identity.email;
  const created = await env.DB.prepare(
    `INSERT INTO users (id, email, name, role, photo_url) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (email) DO NOTHING RETURNING id, email, name, role`,
  )
    .bind(crypto.randomUUID(), address, name, isBootstrapAdmin(env, address) ? 'admin' : 'patient', identity.picture ?? null)
    .first<User>();
  if (created) return { user: created, created: true };
  const user = await env.DB.prepare('SELECT id, email, name, role FROM users WHERE email = ?1').bind(address).first<User>();
  if (!user) throw new Error(`user ${address} vanished`);
  return { user, created: false };
}

function sameEmail(claimed: string | null | undefined, verified: string): boolean {
  return (claimed ?? '').trim().toLowerCase() === verified;
}

/** GET /api/jwt?email=: trades a Firebase ID token for that very email for the Worker's access token. */
export async function getAccessToken(request: Request, env: Env): Promise<Response> {
  await spend(env.TOKEN_LIMITER, clientAddress(request), 'sign-in attempts');
  const identity = await requireIdentity(request, env);
  const claimed = new URL(request.url).searchParams.get('email');
  if (!claimed) throw new HttpError(400, 'email is required');
  if (!sameEmail(claimed, identity.email)) throw new HttpError(403, 'This sign-in belongs to another email');
  const { user } = await ensureUser(env, identity, identity.name ?? identity.email.split('@')[0]!);
  return json({ accessToken: await issueAccessToken(user, env) });
}

/** POST /api/users: stores the signed-in user (name, email); a role in the body is ignored. */
export async function saveUser(request: Request, env: Env): Promise<Response> {
  const identity = await requireIdentity(request, env);
  const body = await readJson(request, NewUser);
  if (!sameEmail(body.email, identity.email)) throw new HttpError(403, 'You can only save your own account');
  const { user, created } = await ensureUser(env, identity, body.name);
  if (created) return json({ acknowledged: true, insertedId: user.id }, 201);
  const { meta } = await env.DB.prepare(
    `UPDATE users SET name = ?1, photo_url = coalesce(?3, photo_url)
     WHERE id = ?2 AND (name != ?1 OR photo_url IS NOT coalesce(?3, photo_url))`,
  )
    .bind(body.name, user.id, identity.picture ?? null)
    .run();
  return json({ acknowledged: true, modifiedCount: meta.changes, message: 'This account already exists' });
}

/** GET /api/users/admin/:email: for that user or an admin. */
export async function getAdminStatus(request: Request & Params, env: Env): Promise<Response> {
  const caller = await requireUser(request, env);
  const address = (request.params.target ?? '').toLowerCase();
  if (caller.email !== address && caller.role !== 'admin') {
    throw new HttpError(403, "You may only ask about your own account");
  }
  const row = await env.DB.prepare('SELECT role FROM users WHERE email = ?1').bind(address).first<{ role: string }>();
  return json({ isAdmin: row?.role === 'admin' });
}

/** GET /api/users (admin): every user, oldest first. */
export async function listUsers(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { results } = await env.DB.prepare(
    'SELECT id, email, name, role FROM users ORDER BY created_at, email',
  ).all<User>();
  return json(results.map(toUser));
}

/** PUT /api/users/admin/:id (admin): makes a user an admin. */
export async function makeAdmin(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const id = request.params.target ?? '';
  const user = await env.DB.prepare('SELECT id, email, name, role FROM users WHERE id = ?1').bind(id).first<User>();
  if (!user) throw new HttpError(404, 'No such user');
  if (user.role === 'admin') {
    return json({ acknowledged: true, modifiedCount: 0, message: `${user.name} is already an admin` });
  }
  const { meta } = await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1 AND role != 'admin'")
    .bind(id)
    .run();
  return json({ acknowledged: true, modifiedCount: meta.changes, message: `${user.name} is now an admin` });
}

/** DELETE /api/users/:id (admin): removes a user and their bookings; never the caller's own account. */
export async function deleteUser(request: Request & Params, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const id = request.params.id ?? '';
  if (id === admin.id) throw new HttpError(403, 'You cannot delete your own account');
  const { meta } = await env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(id).run();
  if (meta.changes === 0) throw new HttpError(404, 'No such user');
  return json({ acknowledged: true, deletedCount: meta.changes });
}
