// The Worker's access token: the one module that reads, stores, renews and forgets it.
import { send } from './http.ts';

/** Where the token lives (docs/product.md#session-token). */
const ACCESS_TOKEN_KEY = 'accessToken';

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

/** Forgets the stored access token (sign-out, or Firebase says nobody is signed in). */
export function forgetAccessToken(): void {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
}

/**
 * Trades a Firebase ID token for the Worker's access token (GET /api/jwt?email=, the ID token in
 * `Authorization: Bearer`) and stores it. The Worker also creates the user on first sight.
 */
export async function exchangeIdToken(email: string, idToken: string): Promise<string> {
  const { accessToken } = await send<{ accessToken: string }>(`/jwt?email=${encodeURIComponent(email)}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${idToken}` },
  });
  localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  return accessToken;
}

/** How long sign-out waits for the server to end the session before it goes on without it. */
const REVOKE_TIMEOUT_MS = 3000;

/**
 * Asks the Worker to end every access token of the signed-in user (POST /api/sessions/revoke), so a
 * copied token stops working too. Best effort: offline, slow or refused, sign-out goes on.
 */
export async function revokeAccessTokens(): Promise<void> {
  const token = readAccessToken();
  if (!token) return;
  try {
    await send('/sessions/revoke', {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
    });
  } catch (cause) {
    console.warn('The server could not end this session; signing out here anyway', cause);
  }
}

let renewal: Promise<string | null> | null = null;

const renewalWatchers = new Set<() => void>();

/**
 * Calls `watcher` whenever a renewal asks Firebase for a new token (the session then listens to Firebase:
 * a session ended there ends here too). Returns a function that stops it.
 */
export function onAccessTokenRenewal(watcher: () => void): () => void {
  renewalWatchers.add(watcher);
  return () => renewalWatchers.delete(watcher);
}

/** A new access token from a freshly minted ID token, or null when nobody is signed in. Concurrent callers share one. */
function renewFromFirebase(): Promise<string | null> {
  if (!renewal) for (const watcher of renewalWatchers) watcher();
  renewal ??= (async () => {
    const { currentUser } = await import('./firebase.ts');
    const user = await currentUser();
    if (!user?.email) return null;
    return exchangeIdToken(user.email, await user.getIdToken(true));
  })()
    .catch((cause: unknown) => {
      console.error(cause);
      return null;
    })
    .finally(() => {
      renewal = null;
    });
  return renewal;
}

/**
 * The token to retry with after the Worker refused `refused` (401): the one another call stored
 * meanwhile, else a new one from the Firebase session; null when nobody is signed in.
 */
export async function renewedAccessToken(refused: string | null): Promise<string | null> {
  const stored = readAccessToken();
  return stored && stored !== refused ? stored : renewFromFirebase();
}
