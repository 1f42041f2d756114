/** An API failure: the HTTP status (0 when the network failed) and the server's `message`. */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;

  constructor(status: number, message: string, statusText = '') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
  }
}

/** The request never reached the server (offline, DNS, refused): not an answer such as a 401 or a 503. */
export const isNetworkFailure = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

export const ACCESS_TOKEN_KEY = 'accessToken';

function readAccessToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(ACCESS_TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

function storeAccessToken(token: string) {
  localStorage.setItem(ACCESS_TOKEN_KEY, token);
}

async function send<T>(path: string, init: RequestInit, headers: Headers): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers });
  } catch (cause) {
    throw new ApiError(0, cause instanceof Error ? cause.message : 'Network request failed');
  }

  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new ApiError(response.status, 'The server sent an invalid response', response.statusText);
    }
  }

  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : response.statusText || `Request failed with status ${response.status}`;
    throw new ApiError(response.status, message, response.statusText);
  }
  return body as T;
}

/**
 * Trades a Firebase ID token for the Worker's access token (GET /api/jwt?email=) and stores it under
 * `accessToken` (SPEC §3). The Worker also creates the user on first sight.
 */
export async function exchangeIdToken(email: string, idToken: string): Promise<string> {
  const { accessToken } = await api<{ accessToken: string }>(`/jwt?email=${encodeURIComponent(email)}`, {
    headers: { Authorization: `Bearer ${idToken}` },
  });
  storeAccessToken(accessToken);
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
  const headers = new Headers({ Accept: 'application/json', Authorization: `Bearer ${token}` });
  try {
    await send('/sessions/revoke', { method: 'POST', signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) }, headers);
  } catch (cause) {
    console.warn('The server could not end this session; signing out here anyway', cause);
  }
}

let renewal: Promise<string | null> | null = null;

/** A new access token from a freshly minted ID token, or null when nobody is signed in. Concurrent callers share one. */
function renewAccessToken(): Promise<string | null> {
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
 * Calls the Worker's JSON API: `api('/reviews')` fetches `/api/reviews`.
 * Sends the stored access token, and throws ApiError with the server's message on a non-2xx answer.
 * When the access token is refused (401) it is renewed once from the Firebase session and the call
 * retried once; a second 401 is thrown. Calls that bring their own Authorization are never retried.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (typeof init.body === 'string' && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  if (headers.has('Authorization')) return send<T>(path, init, headers);

  const token = readAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await send<T>(path, init, headers);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    // Another call may have renewed the token while this one was in flight.
    const stored = readAccessToken();
    const fresh = stored && stored !== token ? stored : await renewAccessToken();
    if (!fresh) throw error;
    headers.set('Authorization', `Bearer ${fresh}`);
    return send<T>(path, init, headers);
  }
}

/** SWR fetcher: the key is the API path. */
export const apiFetcher = <T,>(path: string): Promise<T> => api<T>(path);
