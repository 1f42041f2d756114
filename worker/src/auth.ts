import {
  SignJWT,
  UnsecuredJWT,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Env } from './env.ts';
import { HttpError } from './http.ts';

/** Google's public keys for Firebase ID tokens (jose caches them per isolate). */
const GOOGLE_KEYS = createRemoteJWKSet(
  new URL('https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
);

export interface Identity {
  uid: string;
  email: string;
  name: string | undefined;
  picture: string | undefined;
}

export interface User {
  id: string;
  email: string;
  name: string;
  role: 'patient' | 'admin';
}

const ACCESS_TOKEN_ISSUER = 'dental-clinic';
const ACCESS_TOKEN_AUDIENCE = 'dental-clinic-api';
const ACCESS_TOKEN_LIFETIME = '30m';

function bearer(request: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '');
  if (!match?.[1]) throw new HttpError(401, 'Sign in first: this needs an Authorization: Bearer token');
  return match[1];
}

/**
 * Verifies a Firebase ID token: RS256 against Google's keys, with issuer, audience, expiry and
 * subject checked. The emulator's unsigned tokens pass only when the emulator is configured.
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
      ({ payload } = await jwtVerify(token, options.keys ?? GOOGLE_KEYS, { ...claims, algorithms: ['RS256'] }));
    }
  } catch {
    throw new HttpError(401, 'Your sign-in is not valid or has expired; please sign in again');
  }
  const { sub, email, name, picture } = payload as JWTPayload & { email?: unknown; name?: unknown; picture?: unknown };
  if (!sub || typeof email !== 'string' || !email) {
    throw new HttpError(401, 'Your sign-in carries no email address');
  }
  return {
    uid: sub,
    email: email.toLowerCase(),
    name: typeof name === 'string' ? name.slice(0, 100) : undefined,
    picture: typeof picture === 'string' && /^https:\/\//.test(picture) ? picture.slice(0, 500) : undefined,
  };
}

/** The Firebase identity behind a request's bearer ID token. */
export function requireIdentity(request: Request, env: Env): Promise<Identity> {
  return verifyIdToken(bearer(request), {
    projectId: env.FIREBASE_PROJECT_ID,
    emulator: Boolean(env.FIREBASE_AUTH_EMULATOR_HOST),
  });
}

function signingKey(env: Env): Uint8Array {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
    throw new Error('JWT_SECRET is missing or shorter than 32 characters');
  }
  return new TextEncoder().encode(env.JWT_SECRET);
}

/** The Worker's own short-lived access token for a stored user. */
export function issueAccessToken(user: User, env: Env): Promise<string> {
  return new SignJWT({ email: user.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(ACCESS_TOKEN_LIFETIME)
    .sign(signingKey(env));
}

/** The stored user behind a request's access token; their role is read from D1 on every call. */
export async function requireUser(request: Request, env: Env): Promise<User> {
  const token = bearer(request);
  const key = signingKey(env);
  let subject: string | undefined;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    subject = payload.sub;
  } catch {
    throw new HttpError(401, 'Your session has expired; please sign in again');
  }
  const user = subject
    ? await env.DB.prepare('SELECT id, email, name, role FROM users WHERE id = ?1').bind(subject).first<User>()
    : null;
  if (!user) throw new HttpError(401, 'Your account no longer exists');
  return user;
}

export async function requireAdmin(request: Request, env: Env): Promise<User> {
  const user = await requireUser(request, env);
  if (user.role !== 'admin') throw new HttpError(403, 'Only an admin may do this');
  return user;
}
