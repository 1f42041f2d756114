import * as v from 'valibot';
import type { Acknowledged } from '../../../contract/answers.ts';
import { type Language, pickLanguage } from '../../../contract/languages.ts';
import { USERS_PAGE_SIZE } from '../../../contract/pages.ts';
import {
  type AccessToken,
  type AdminMade,
  type AdminStatus,
  type LanguageSetting,
  NewUser,
  type UserSaved,
} from '../../../contract/users.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { languageOf } from '../platform/words.ts';
import { callerOf, type Identity, identityOf, issueAccessToken } from './auth.ts';
import {
  bindUser,
  insertUser,
  makeUserAdmin,
  revokeAccessTokens,
  setUserLanguage,
  toUserAnswer,
  USER_EMAIL,
  USER_FIREBASE_UID,
  type User,
  type UserRow,
  updateUserProfile,
  userByEmail,
  userById,
  userFromRow,
  userLanguage,
  usersByUidOrEmail,
  usersPage,
} from './data/users.ts';

const EMAIL_TAKEN = 'An account with this email already exists; contact the clinic';
const VERIFY_BEFORE_SIGN_IN =
  'Please verify your email address first: open the link we emailed you, then sign in again';
/** A record the front desk made (a booking by phone) waits for its email to be verified before it is handed over. */
const RECORD_WAITS =
  'The clinic already has your record from a booking by phone. Open the link we emailed you to confirm this address is yours, then sign in: your appointments will be there.';

function isBootstrapAdmin(env: Env, address: string): boolean {
  return env.ADMIN_EMAILS.split(',').some((admin) => admin.trim().toLowerCase() === address);
}

/**
 * The stored user of a Firebase identity, created on first sight. The uid decides who a record
 * belongs to: a record bound to another uid is never handed over (409, even for the same email: a
 * deleted Firebase account's successor starts afresh only once the clinic deletes the old record);
 * a record from before uids were stored is bound by the first sign-in whose email is verified
 * (403 for an unverified one). Every call refreshes email_verified; an ADMIN_EMAILS address is
 * refused until verified, and promoted at the first verified call (which ends older access tokens).
 */
async function userOf(
  env: Env,
  identity: Identity,
  name: string,
  language: Language,
): Promise<{ user: User; created: boolean }> {
  const { uid, email: address, emailVerified } = identity;
  const bootstrapAdmin = isBootstrapAdmin(env, address);
  if (bootstrapAdmin && !emailVerified) throw new HttpError(403, VERIFY_BEFORE_SIGN_IN);
  // Twice at most: a concurrent first sign-in may create or bind the record between our read and write.
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await usersByUidOrEmail(env.DB, uid, address);
    const bound = found.find((user) => user.firebaseUid === uid);
    const byEmail = found.find((user) => user !== bound && user.email.toLowerCase() === address);
    if (byEmail && (byEmail.firebaseUid !== null || bound)) throw new HttpError(409, EMAIL_TAKEN);
    if (byEmail && !emailVerified) throw new HttpError(403, RECORD_WAITS, {}, { recordWaitsForVerification: true });

    const existing = bound ?? byEmail;
    if (!existing) {
      const created = await insertUser(env.DB, {
        id: crypto.randomUUID(),
        email: address,
        name,
        role: bootstrapAdmin ? 'admin' : 'patient',
        photoUrl: identity.picture ?? null,
        firebaseUid: uid,
        emailVerified,
        language,
      }).first<UserRow>();
      if (created) return { user: userFromRow(created), created: true };
      continue;
    }
    let updated: UserRow | null;
    try {
      // Compare-and-set on the binding; the email follows the Firebase account's (it may have changed).
      updated = await bindUser(env.DB, {
        id: existing.id,
        uid,
        email: address,
        emailVerified,
        promote: bootstrapAdmin,
      }).first<UserRow>();
    } catch (error) {
      if (violates(error, USER_EMAIL) || violates(error, USER_FIREBASE_UID)) throw new HttpError(409, EMAIL_TAKEN);
      throw error;
    }
    if (updated) return { user: userFromRow(updated), created: false };
  }
  throw new HttpError(409, EMAIL_TAKEN);
}

/**
 * The name a new account takes from its identity token: the token's display name when it passes the
 * same field rules as POST /api/users (one line, 1-100 characters), else the email's local part.
 */
function nameOf(identity: Identity): string {
  const fromToken = v.safeParse(NewUser.entries.name, identity.name);
  if (fromToken.success) return fromToken.output;
  const local = v.safeParse(NewUser.entries.name, identity.email.split('@')[0]);
  return local.success ? local.output : 'Patient';
}

function sameEmail(claimed: string | null | undefined, verified: string): boolean {
  return (claimed ?? '').trim().toLowerCase() === verified;
}

/** GET /api/jwt?email=: trades a Firebase ID token for that very email for the Worker's access token. */
export async function getAccessToken(request: Request, env: Env): Promise<Response> {
  const identity = identityOf(request);
  const claimed = inputOf(request, 'GET /jwt').query.email;
  if (!sameEmail(claimed, identity.email)) throw new HttpError(403, 'This sign-in belongs to another email');
  const { user } = await userOf(env, identity, nameOf(identity), pickLanguage(request.headers.get('Accept-Language')));
  return json({ accessToken: await issueAccessToken(user, env) } satisfies AccessToken);
}

/** POST /api/users: stores the signed-in user (name, email); a role in the body is ignored. */
export async function saveUser(request: Request, env: Env): Promise<Response> {
  const identity = identityOf(request);
  const body = inputOf(request, 'POST /users').body;
  if (!sameEmail(body.email, identity.email)) throw new HttpError(403, 'You can only save your own account');
  const { user, created } = await userOf(
    env,
    identity,
    body.name,
    pickLanguage(request.headers.get('Accept-Language')),
  );
  if (created) return json({ acknowledged: true, insertedId: user.id } satisfies UserSaved, 201);
  const { meta } = await updateUserProfile(env.DB, user.id, body.name, identity.picture ?? null).run();
  return json({
    acknowledged: true,
    modifiedCount: meta.changes,
    message: 'This account already exists',
  } satisfies UserSaved);
}

/** GET /api/users/me/language: the language of the caller's mails, texts and calendar files. */
export async function getLanguage(request: Request, env: Env): Promise<Response> {
  const language = await userLanguage(env.DB, callerOf(request).id);
  if (language === null) throw new HttpError(404, 'No such user');
  return json({ language: languageOf(language) } satisfies LanguageSetting);
}

/** PUT /api/users/me/language: the caller's mails, texts and calendar files from now on, in `language`. */
export async function setLanguage(request: Request, env: Env): Promise<Response> {
  const { language } = inputOf(request, 'PUT /users/me/language').body;
  const saved = await setUserLanguage(env.DB, callerOf(request).id, language).first<{ language: string }>();
  if (!saved) throw new HttpError(404, 'No such user');
  return json({ language } satisfies LanguageSetting);
}

/** POST /api/sessions/revoke: signs the caller out everywhere: every access token issued to them stops working. */
export async function revokeSessions(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await revokeAccessTokens(env.DB, user.id).run();
  return json({ acknowledged: true } satisfies Acknowledged);
}

/** GET /api/users/admin/:email: for that user or an admin. */
export async function getAdminStatus(request: Request, env: Env): Promise<Response> {
  const caller = callerOf(request);
  const address = inputOf(request, 'GET /users/admin/:target').params.target.toLowerCase();
  if (caller.email !== address && caller.role !== 'admin') {
    throw new HttpError(403, 'You may only ask about your own account');
  }
  const user = await userByEmail(env.DB, address);
  return json({ isAdmin: user?.role === 'admin' } satisfies AdminStatus);
}

/**
 * GET /api/users?q=&page= (admin): a page of the users whose name or email contains q, by name;
 * X-Total-Count says how many match, Link names the next page.
 */
export async function listUsers(request: Request, env: Env): Promise<Response> {
  const { q, page } = inputOf(request, 'GET /users').query;
  const { users, total } = await usersPage(env.DB, q, USERS_PAGE_SIZE, (page - 1) * USERS_PAGE_SIZE);
  const response = json(users.map(toUserAnswer));
  response.headers.set('X-Total-Count', String(total));
  if (page * USERS_PAGE_SIZE < total) {
    const next = new URLSearchParams({ ...(q ? { q } : {}), page: String(page + 1) });
    response.headers.set('Link', `</api/users?${next}>; rel="next"`);
  }
  return response;
}

/**
 * PUT /api/users/admin/:id (admin): makes a user with a verified email an admin. Their access tokens
 * issued before end (the token version moves), so no token claims the old role.
 */
export async function makeAdmin(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const id = inputOf(request, 'PUT /users/admin/:target').params.target;
  const user = await userById(env.DB, id);
  if (!user) throw new HttpError(404, 'No such user');
  if (user.role === 'admin') {
    return json({
      acknowledged: true,
      modifiedCount: 0,
      message: `${user.name} is already an admin`,
    } satisfies AdminMade);
  }
  if (!user.emailVerified) {
    throw new HttpError(
      403,
      `${user.name} has not verified their email address yet; they can become an admin once they have`,
    );
  }
  const [made] = await env.DB.batch([
    makeUserAdmin(env.DB, id),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'user.made_admin',
        target: userTarget(user),
        before: { role: user.role },
        after: { role: 'admin' },
      },
      IF_CHANGED,
    ),
  ]);
  return json({
    acknowledged: true,
    modifiedCount: made?.meta.changes ?? 0,
    message: `${user.name} is now an admin`,
  } satisfies AdminMade);
}

/** A user as the audit trail names them: "Name (email)". */
const userTarget = (user: User) => ({ type: 'user', id: user.id, name: `${user.name} (${user.email})` }) as const;
