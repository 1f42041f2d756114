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

/** A new access token from a freshly minted ID token, or null when nobody is signed in. Concurrent callers share one. */
function renewFromFirebase(): Promise<string | null> {
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
