import type { Acknowledged, Deleted } from '../../contract/answers.ts';
import {
  AccessTokenQuery,
  NewUser,
  type AccessToken,
  type AdminMade,
  type AdminStatus,
  type User as UserAnswer,
  type UserSaved,
} from '../../contract/users.ts';
import {
  USER_COLUMNS,
  issueAccessToken,
  requireAdmin,
  requireIdentity,
  requireUser,
  userFromRow,
  type Identity,
  type User,
  type UserRow,
} from './auth.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson, readQuery } from './http.ts';
import { clientAddress, spend } from './rate-limit.ts';

type Params = { params: Record<string, string> };

const EMAIL_TAKEN = 'An account with this email already exists; contact the clinic';
const VERIFY_BEFORE_SIGN_IN = 'Please verify your email address first: open the link we emailed you, then sign in again';

function isBootstrapAdmin(env: Env, address: string): boolean {
  return env.ADMIN_EMAILS.split(',').some((admin) => admin.trim().toLowerCase() === address);
}

const toUser = (u: User): UserAnswer => ({ _id: u.id, name: u.name, email: u.email, role: u.role });

const isUniqueViolation = (error: unknown) => String(error).includes('UNIQUE');

/**
 * The stored user of a Firebase identity, created on first sight. The uid decides who a record
 * belongs to: a record bound to another uid is never handed over (409, even for the same email: a
 * deleted Firebase account's successor starts afresh only once the clinic deletes the old record);
 * a record from before uids were stored is bound by the first sign-in whose email is verified
 * (403 for an unverified one). Every call refreshes email_verified; an ADMIN_EMAILS address is
 * refused until verified, and promoted at the first verified call (which ends older access tokens).
 */
async function bindUser(env: Env, identity: Identity, name: string): Promise<{ user: User; created: boolean }> {
  const { uid, email: address, emailVerified } = identity;
  const bootstrapAdmin = isBootstrapAdmin(env, address);
  if (bootstrapAdmin && !emailVerified) throw new HttpError(403, VERIFY_BEFORE_SIGN_IN);
  // Twice at most: a concurrent first sign-in may create or bind the record between our read and write.
  for (let attempt = 0; attempt < 2; attempt++) {
    const { results } = await env.DB.prepare(
      `SELECT ${USER_COLUMNS}, firebase_uid FROM users WHERE firebase_uid = ?1 OR email = ?2`,
    )
      .bind(uid, address)
      .all<UserRow & { firebase_uid: string | null }>();
    const bound = results.find((row) => row.firebase_uid === uid);
    const byEmail = results.find((row) => row !== bound && row.email.toLowerCase() === address);
    if (byEmail && (byEmail.firebase_uid !== null || bound)) throw new HttpError(409, EMAIL_TAKEN);
    if (byEmail && !emailVerified) throw new HttpError(403, VERIFY_BEFORE_SIGN_IN);

    const existing = bound ?? byEmail;
    if (!existing) {
      const created = await env.DB.prepare(
        `INSERT INTO users (id, email, name, role, photo_url, firebase_uid, email_verified)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
      )
        .bind(crypto.randomUUID(), address, name, bootstrapAdmin ? 'admin' : 'patient', identity.picture ?? null, uid, emailVerified ? 1 : 0)
        .first<UserRow>();
      if (created) return { user: userFromRow(created), created: true };
      continue;
    }
    let updated: UserRow | null;
    try {
      // Compare-and-set on the binding; the email follows the Firebase account's (it may have changed).
      updated = await env.DB.prepare(
        `UPDATE users SET firebase_uid = ?2, email = ?3, email_verified = ?4,
           role = CASE WHEN ?5 THEN 'admin' ELSE role END,
           token_version = token_version + (CASE WHEN ?5 AND role != 'admin' THEN 1 ELSE 0 END)
         WHERE id = ?1 AND (firebase_uid IS NULL OR firebase_uid = ?2)
         RETURNING ${USER_COLUMNS}`,
      )
        .bind(existing.id, uid, address, emailVerified ? 1 : 0, bootstrapAdmin ? 1 : 0)
        .first<UserRow>();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, EMAIL_TAKEN);
      throw error;
    }
    if (updated) return { user: userFromRow(updated), created: false };
  }
  throw new HttpError(409, EMAIL_TAKEN);
}

function sameEmail(claimed: string | null | undefined, verified: string): boolean {
  return (claimed ?? '').trim().toLowerCase() === verified;
}

/** GET /api/jwt?email=: trades a Firebase ID token for that very email for the Worker's access token. */
export async function getAccessToken(request: Request, env: Env): Promise<Response> {
  await spend(env.TOKEN_LIMITER, clientAddress(request), 'sign-in attempts');
  const identity = await requireIdentity(request, env);
  const claimed = readQuery(request, AccessTokenQuery).email;
  if (!sameEmail(claimed, identity.email)) throw new HttpError(403, 'This sign-in belongs to another email');
  const { user } = await bindUser(env, identity, identity.name ?? identity.email.split('@')[0]!);
  return json({ accessToken: await issueAccessToken(user, env) } satisfies AccessToken);
}

/** POST /api/users: stores the signed-in user (name, email); a role in the body is ignored. */
export async function saveUser(request: Request, env: Env): Promise<Response> {
  const identity = await requireIdentity(request, env);
  const body = await readJson(request, NewUser);
  if (!sameEmail(body.email, identity.email)) throw new HttpError(403, 'You can only save your own account');
  const { user, created } = await bindUser(env, identity, body.name);
  if (created) return json({ acknowledged: true, insertedId: user.id } satisfies UserSaved, 201);
  const { meta } = await env.DB.prepare(
    `UPDATE users SET name = ?1, photo_url = coalesce(?3, photo_url)
     WHERE id = ?2 AND (name != ?1 OR photo_url IS NOT coalesce(?3, photo_url))`,
  )
    .bind(body.name, user.id, identity.picture ?? null)
    .run();
  return json({ acknowledged: true, modifiedCount: meta.changes, message: 'This account already exists' } satisfies UserSaved);
}

/** POST /api/sessions/revoke: signs the caller out everywhere: every access token issued to them stops working. */
export async function revokeSessions(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  await env.DB.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?1').bind(user.id).run();
  return json({ acknowledged: true } satisfies Acknowledged);
}

/** GET /api/users/admin/:email: for that user or an admin. */
export async function getAdminStatus(request: Request & Params, env: Env): Promise<Response> {
  const caller = await requireUser(request, env);
  const address = (request.params.target ?? '').toLowerCase();
  if (caller.email !== address && caller.role !== 'admin') {
    throw new HttpError(403, "You may only ask about your own account");
  }
  const row = await env.DB.prepare('SELECT role FROM users WHERE email = ?1').bind(address).first<{ role: string }>();
  return json({ isAdmin: row?.role === 'admin' } satisfies AdminStatus);
}

/** GET /api/users (admin): every user, oldest first. */
export async function listUsers(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { results } = await env.DB.prepare(
    `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, email`,
  ).all<UserRow>();
  return json(results.map((row) => toUser(userFromRow(row))));
}

/**
 * PUT /api/users/admin/:id (admin): makes a user with a verified email an admin. Their access tokens
 * issued before end (the token version moves), so no token claims the old role.
 */
export async function makeAdmin(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const id = request.params.target ?? '';
  const row = await env.DB.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?1`).bind(id).first<UserRow>();
  if (!row) throw new HttpError(404, 'No such user');
  const user = userFromRow(row);
  if (user.role === 'admin') {
    return json({ acknowledged: true, modifiedCount: 0, message: `${user.name} is already an admin` } satisfies AdminMade);
  }
  if (!user.emailVerified) {
    throw new HttpError(403, `${user.name} has not verified their email address yet; they can become an admin once they have`);
  }
  const { meta } = await env.DB.prepare(
    `UPDATE users SET role = 'admin', token_version = token_version + 1
     WHERE id = ?1 AND role != 'admin' AND email_verified = 1`,
  )
    .bind(id)
    .run();
  return json({ acknowledged: true, modifiedCount: meta.changes, message: `${user.name} is now an admin` } satisfies AdminMade);
}

/** DELETE /api/users/:id (admin): removes a user and their bookings; never the caller's own account. */
export async function deleteUser(request: Request & Params, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const id = request.params.id ?? '';
  if (id === admin.id) throw new HttpError(403, 'You cannot delete your own account');
  const { meta } = await env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(id).run();
  if (meta.changes === 0) throw new HttpError(404, 'No such user');
  return json({ acknowledged: true, deletedCount: meta.changes } satisfies Deleted);
}
