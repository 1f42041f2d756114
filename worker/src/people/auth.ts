import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import type { Audience } from '../../../contract/routes.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';
import { clientAddress, spend } from '../platform/rate-limit.ts';
import { type User, userById } from './data/users.ts';

/** How long a sign-in waits for Google's key server before answering 503. */
const KEY_SERVER_TIMEOUT_MS = 5_000;
/** What a 503 asks the client to wait when Google's key server could not be reached. */
const KEY_SERVER_RETRY_AFTER_SECONDS = 30;
/** An ID token issued further ahead of this Worker's clock than this is refused (clocks drift a little, not more). */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/** Google's public keys for Firebase ID tokens (jose caches them per isolate). */
const GOOGLE_KEYS = createRemoteJWKSet(
  new URL('https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
  { timeoutDuration: KEY_SERVER_TIMEOUT_MS },
);

export interface Identity {
  /** The Firebase uid (`sub`): who this is. The email is only an attribute of the account. */
  uid: string;
  email: string;
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
}

/** What booking, reviewing and becoming admin answer to an unverified account (403). */
export const VERIFY_EMAIL_FIRST =
  'Please verify your email address first: open the link we emailed you, then try again';

const ACCESS_TOKEN_ISSUER = 'dental-clinic';
const ACCESS_TOKEN_AUDIENCE = 'dental-clinic-api';
const ACCESS_TOKEN_LIFETIME = '30m';

function bearer(request: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '');
  if (!match?.[1]) throw new HttpError(401, 'Sign in first: this needs an Authorization: Bearer token');
  return match[1];
}

/**
 * The key lookup, telling "Google's key server could not be reached" (503, Retry-After) apart from a
 * token no key matches (401).
 */
function orUnavailable(keys: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      console.error('Firebase signing keys unavailable:', error instanceof Error ? error.message : error);
      throw new HttpError(503, 'We cannot check your sign-in right now; please try again in a minute', {
        'Retry-After': String(KEY_SERVER_RETRY_AFTER_SECONDS),
      });
    }
  };
}

const INVALID_SIGN_IN = 'Your sign-in is not valid or has expired; please sign in again';

/**
 * Verifies a Firebase ID token: RS256 against Google's keys, with issuer, audience, expiry, subject
 * and an issue time not in the future checked. The emulator's unsigned tokens pass only when
 * `emulator` says so (see acceptsEmulatorTokens).
 */
export async function verifyIdToken(
  token: string,
  options: { projectId: string; emulator: boolean; keys?: JWTVerifyGetKey },
): Promise<Identity> {
  const issuer = `https://securetoken.google.com/${options.projectId}`;
  const claims = { issuer, audience: options.projectId, requiredClaims: ['sub', 'iat', 'exp'] };
  let payload: JWTPayload;
  try {
    if (decodeProtectedHeader(token).alg === 'none') {
      if (!options.emulator) throw new Error('unsigned token outside emulator mode');
      payload = UnsecuredJWT.decode(token, claims).payload;
    } else {
      const keys = orUnavailable(options.keys ?? GOOGLE_KEYS);
      ({ payload } = await jwtVerify(token, keys, { ...claims, algorithms: ['RS256'] }));
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(401, INVALID_SIGN_IN);
  }
  if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS) {
    throw new HttpError(401, INVALID_SIGN_IN);
  }
  const { sub, email, email_verified, name, picture } = payload as JWTPayload & Record<string, unknown>;
  if (!sub || typeof email !== 'string' || !email) {
    throw new HttpError(401, 'Your sign-in carries no email address');
  }
  return {
    uid: sub,
    email: email.toLowerCase(),
    emailVerified: email_verified === true,
    name: typeof name === 'string' ? name.slice(0, 100) : undefined,
    picture: typeof picture === 'string' && /^https:\/\//.test(picture) ? picture.slice(0, 500) : undefined,
  };
}

/**
 * The emulator's unsigned tokens are accepted only with the emulator configured AND the local-only
 * flag set: the local stack and the Worker tests set both; a deploy refuses either
 * (scripts/check-deploy-config.ts).
 */
export function acceptsEmulatorTokens(env: Env): boolean {
  return Boolean(env.FIREBASE_AUTH_EMULATOR_HOST) && env.ALLOW_UNSIGNED_EMULATOR_TOKENS === 'true';
}

/** The Firebase identity behind a request's bearer ID token. */
export function requireIdentity(request: Request, env: Env): Promise<Identity> {
  return verifyIdToken(bearer(request), { projectId: env.FIREBASE_PROJECT_ID, emulator: acceptsEmulatorTokens(env) });
}

let imported: { secret: string; key: Promise<CryptoKey> } | undefined;

/**
 * The access tokens' HMAC key, imported once per isolate (and again when the secret changes): every
 * signed-in call verifies a token, and importing the key is the part of it that costs.
 */
function signingKey(env: Env): Promise<CryptoKey> {
  const secret = env.JWT_SECRET;
  if (!secret || secret.length < 32) throw new Error('JWT_SECRET is missing or shorter than 32 characters');
  if (imported?.secret !== secret) {
    const key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    imported = { secret, key };
  }
  return imported.key;
}

/**
 * The Worker's own short-lived access token for a stored user. `ver` ties it to the user's token
 * version; email, role and verified are for the client to read (the Worker reads D1 on every call).
 */
export async function issueAccessToken(user: User, env: Env): Promise<string> {
  return new SignJWT({ email: user.email, role: user.role, verified: user.emailVerified, ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(ACCESS_TOKEN_LIFETIME)
    .sign(await signingKey(env));
}

/**
 * The stored user behind a request's access token, read from D1 on every call (one query): their
 * role and verified state as they are now, and a token whose version is not theirs any more (signed
 * out, role changed) is refused.
 */
export async function requireUser(request: Request, env: Env): Promise<User> {
  const token = bearer(request);
  const key = await signingKey(env);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    }));
  } catch {
    throw new HttpError(401, 'Your session has expired; please sign in again');
  }
  const user = payload.sub ? await userById(env.DB, payload.sub) : null;
  if (!user) throw new HttpError(401, 'Your account no longer exists');
  if (payload.ver !== user.tokenVersion) throw new HttpError(401, 'Your session has ended; please sign in again');
  return user;
}

export async function requireAdmin(request: Request, env: Env): Promise<User> {
  const user = await requireUser(request, env);
  if (user.role !== 'admin') throw new HttpError(403, 'Only an admin may do this');
  return user;
}

/** A request whose route's audience is signed in carries its caller, read once by the guard. */
type WithCaller = Request & { caller?: User; identity?: Identity };

/**
 * Applies a route's audience (contract/routes.ts) before its handler: a signed-in audience reads the
 * caller from D1 once (401 without a valid session), 'admin' also needs the admin role (403), and
 * 'identity' verifies the Firebase ID token (401), after the address's sign-in budget (429).
 */
export async function admit(request: Request, env: Env, audience: Audience): Promise<void> {
  if (audience === 'public' || audience === 'signed') return;
  if (audience === 'identity') {
    // Before any token is checked, so a flood of made-up tokens costs no verification.
    await spend(env.TOKEN_LIMITER, clientAddress(request), 'sign-in attempts');
    (request as WithCaller).identity = await requireIdentity(request, env);
    return;
  }
  (request as WithCaller).caller =
    audience === 'admin' ? await requireAdmin(request, env) : await requireUser(request, env);
}

/** The Firebase identity the guard verified (only on routes whose audience is 'identity'). */
export function identityOf(request: Request): Identity {
  const identity = (request as WithCaller).identity;
  if (!identity) throw new Error('identityOf on a route whose audience is not identity');
  return identity;
}

/** The signed-in caller the guard admitted (only on routes whose audience is signed in). */
export function callerOf(request: Request): User {
  const caller = (request as WithCaller).caller;
  if (!caller) throw new Error('callerOf on a route whose audience is not signed in');
  return caller;
}

/** The signed-in caller, who must have verified their email (booking, reviewing). */
export function verifiedCallerOf(request: Request): User {
  const user = callerOf(request);
  if (!user.emailVerified) throw new HttpError(403, VERIFY_EMAIL_FIRST);
  return user;
}
