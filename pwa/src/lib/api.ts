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

export const ACCESS_TOKEN_KEY = 'accessToken';

function readAccessToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(ACCESS_TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * Calls the Worker's JSON API: `api('/reviews')` fetches `/api/reviews`.
 * Sends the stored access token, and throws ApiError with the server's message on a non-2xx answer.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (typeof init.body === 'string' && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  const token = readAccessToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);

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

/** SWR fetcher: the key is the API path. */
export const apiFetcher = <T,>(path: string): Promise<T> => api<T>(path);
