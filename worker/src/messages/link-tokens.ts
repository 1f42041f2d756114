import type { LinkAction } from '../../../contract/links.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';

/**
 * The tokens of the links in messages, `<origin>/l/<token>`: `<action>.<id>.<version>.<expiry>.<mac>`,
 * short enough for an SMS. The action is one letter (c confirm, r callback, x cancel, b book, f forms), the
 * id a booking's or a recall's, the version the booking's when the message was made (0 for a
 * recall), the expiry in Unix seconds, the mac the first 128 bits of an HMAC-SHA256 over the rest,
 * keyed by JWT_SECRET under the "links:" label (so it can sign nothing else). Each token does one
 * thing, for one booking at one version, until its expiry.
 */
export interface LinkClaims {
  action: LinkAction;
  id: string;
  version: number;
  expiresAt: number;
}

const CODES: Record<LinkAction, string> = { confirm: 'c', callback: 'r', cancel: 'x', book: 'b', forms: 'f' };
const ACTIONS = Object.fromEntries(Object.entries(CODES).map(([action, code]) => [code, action])) as Record<
  string,
  LinkAction
>;

export const LINK_NOT_VALID =
  'This link is not valid: it may be cut short. Open the message again, or call the clinic.';
export const LINK_EXPIRED = 'This link has expired. See My Appointments, or call the clinic.';

const encoder = new TextEncoder();

async function macOf(env: Env, payload: string): Promise<string> {
  if (!env.JWT_SECRET) throw new Error('JWT_SECRET is not set: links in messages cannot be signed');
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(`links:${env.JWT_SECRET}`),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(payload))).slice(0, 16);
  return btoa(String.fromCharCode(...mac))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

export async function signLink(env: Env, claims: LinkClaims): Promise<string> {
  const payload = `${CODES[claims.action]}.${claims.id}.${claims.version}.${claims.expiresAt}`;
  return `${payload}.${await macOf(env, payload)}`;
}

/** The link's address in a message. */
export const linkUrl = async (env: Env, claims: LinkClaims) => `${env.APP_URL}/l/${await signLink(env, claims)}`;

/** The claims of a token signed here and not expired at `now`; 404 when it is not one of ours, 410 when expired. */
export async function readLink(env: Env, token: string, now: Date): Promise<LinkClaims> {
  const parts = token.split('.');
  const [code, id, version, expiry, mac] = parts;
  const action = code === undefined ? undefined : ACTIONS[code];
  if (
    parts.length !== 5 ||
    !action ||
    !id ||
    !/^[A-Za-z0-9-]{1,64}$/.test(id) ||
    !/^\d{1,9}$/.test(version ?? '') ||
    !/^\d{1,12}$/.test(expiry ?? '') ||
    !mac
  ) {
    throw new HttpError(404, LINK_NOT_VALID);
  }
  const expected = await macOf(env, parts.slice(0, 4).join('.'));
  const given = encoder.encode(mac);
  const wanted = encoder.encode(expected);
  if (given.byteLength !== wanted.byteLength || !crypto.subtle.timingSafeEqual(given, wanted)) {
    throw new HttpError(404, LINK_NOT_VALID);
  }
  const expiresAt = Number(expiry);
  if (expiresAt * 1000 <= now.getTime()) throw new HttpError(410, LINK_EXPIRED);
  return { action, id, version: Number(version), expiresAt };
}
