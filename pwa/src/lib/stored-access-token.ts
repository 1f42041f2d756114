// The stored access token and what the client reads of it, with no other import: the entry reads it to request a
// page's first data with the app's code (first-data.ts). Storing, renewing and forgetting it: access-token.ts.

/** Where the token lives (docs/product-visitors.md#session-token). */
export const ACCESS_TOKEN_KEY = 'accessToken';

/** The stored access token, or null (none, or storage refused). */
export function readAccessToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(ACCESS_TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * What the client reads of the access token: who it names, their role and until when it is valid. Only
 * for the page's own decisions (the guards); the Worker verifies the token on every call.
 */
export type AccessClaims = { email: string; role: string; verified: boolean; expiresAt: number };

/** How long before its expiry a token is treated as expired: the pages it opens would soon need a new one. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * The claims of the stored access token, expired or not (what this device was last told about its
 * user), else null: none or unreadable. Only a hint for the screens: the Worker checks every call.
 */
export function storedAccessClaims(): AccessClaims | null {
  const payload = readAccessToken()?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const { email, role, verified, exp } = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    if (typeof email !== 'string' || typeof role !== 'string' || typeof exp !== 'number') return null;
    return { email, role, verified: verified === true, expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}

/** The claims of the stored access token while it is valid (not expired), else null: none, expired or unreadable. */
export function unexpiredAccessClaims(now = Date.now()): AccessClaims | null {
  const claims = storedAccessClaims();
  return claims && claims.expiresAt - EXPIRY_MARGIN_MS > now ? claims : null;
}
