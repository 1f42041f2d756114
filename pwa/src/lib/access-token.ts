// The Worker's access token: the one module that stores, renews and forgets it (reading it: stored-access-token.ts).

import type { RouteAnswer } from '../../../contract/routes.ts';
import { send } from './http.ts';
import { pathOf } from './route-paths.ts';
import { syncSessionCookie } from './session-cookie.ts';
import { ACCESS_TOKEN_KEY, readAccessToken } from './stored-access-token.ts';

/** Forgets the stored access token (sign-out, or Firebase says nobody is signed in). */
export function forgetAccessToken(): void {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  syncSessionCookie();
}

/**
 * Trades a Firebase ID token for the Worker's access token (GET /api/jwt?email=, the ID token in
 * `Authorization: Bearer`) and stores it. The Worker also creates the user on first sight.
 */
export async function exchangeIdToken(email: string, idToken: string): Promise<string> {
  const { accessToken } = await send<RouteAnswer<'GET /jwt', never>>(pathOf('GET /jwt', { query: { email } }), {
    headers: { Accept: 'application/json', Authorization: `Bearer ${idToken}` },
  });
  localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  syncSessionCookie();
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
    await send(pathOf('POST /sessions/revoke'), {
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
