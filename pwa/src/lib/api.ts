import { renewedAccessToken } from './access-token.ts';
import { ApiError, answerOf } from './http.ts';
import { invalidateAfterWrite } from './invalidation.ts';
import { readAccessToken } from './stored-access-token.ts';

/**
 * Calls the Worker's API (through the typed client, client.ts): a route's path (pathOf) is fetched under /api, and
 * answers its JSON (or a Blob when the call asks, by its Accept header, for another type). Sends the stored access token, and
 * throws ApiError with the server's message on a non-2xx answer. When the access token is refused
 * (401) it is renewed once (access-token.ts) and the call retried once; a second 401 is thrown.
 * Calls that bring their own Authorization are never retried.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await apiAnswer<T>(path, init)).body;
}

/** A write refused because things changed meanwhile (or are gone): the screens that show them reload too. */
const CHANGED_MEANWHILE = new Set([404, 409, 410]);

/**
 * As `api`, with the answer's headers too (a page's X-Total-Count and Link, say). A write that
 * reached the server (done, or refused because things changed meanwhile) resolves once what it
 * changed is fetched again wherever it shows (invalidation.ts), so the screens are current.
 */
export async function apiAnswer<T>(path: string, init: RequestInit = {}): Promise<{ body: T; headers: Headers }> {
  const method = (init.method ?? 'GET').toUpperCase();
  // A dry run (`?dryRun=1`) changes nothing, so nothing is stale after it.
  if (method === 'GET' || method === 'HEAD' || /[?&]dryRun=1\b/.test(path)) return send<T>(path, init);
  try {
    const answer = await send<T>(path, init);
    await invalidateAfterWrite(method, path);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && CHANGED_MEANWHILE.has(error.status)) await invalidateAfterWrite(method, path);
    throw error;
  }
}

async function send<T>(path: string, init: RequestInit): Promise<{ body: T; headers: Headers }> {
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (typeof init.body === 'string' && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  if (headers.has('Authorization')) return answerOf<T>(path, { ...init, headers });

  const token = readAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await answerOf<T>(path, { ...init, headers });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const fresh = await renewedAccessToken(token);
    if (!fresh) throw error;
    headers.set('Authorization', `Bearer ${fresh}`);
    return answerOf<T>(path, { ...init, headers });
  }
}

/** SWR fetcher: the key is the API path. */
export const apiFetcher = <T>(path: string): Promise<T> => api<T>(path);
