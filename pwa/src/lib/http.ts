import { noteAnswer, noteNetworkFailure } from './connection.ts';
import { takeEarlyAnswer } from './early-data.ts';

/**
 * An API failure: the HTTP status (0 when the network failed), the server's `message`, and its whole
 * JSON answer in `body` (a 409 of a schedule change lists the bookings it would strand there).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;

  constructor(status: number, message: string, statusText = '', body: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

/** The request never reached the server (offline, DNS, refused): not an answer such as a 401 or a 503. */
export const isNetworkFailure = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

const asksForJson = (headers: Headers) => (headers.get('Accept') ?? 'application/json').includes('application/json');

/**
 * One request to the Worker's API (a route's path, fetched under /api) exactly as given:
 * no access token is added and nothing is retried (api.ts does both). Answers the JSON body, or the
 * body as a Blob when the request asks (Accept) for something other than JSON, such as a calendar
 * file. A non-2xx answer throws ApiError with the server's `message`; a network failure, status 0.
 */
export async function send<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await answerOf<T>(path, init)).body;
}

/** As `send`, with the answer's headers too (a page's X-Total-Count and Link, say). */
export async function answerOf<T>(path: string, init: RequestInit = {}): Promise<{ body: T; headers: Headers }> {
  const headers = new Headers(init.headers);
  let response: Response;
  try {
    const early = (init.method ?? 'GET') === 'GET' ? takeEarlyAnswer(path, headers.get('Authorization')) : undefined;
    response = await (early ?? fetch(`/api${path}`, { ...init, headers }));
  } catch (cause) {
    // fetch rejects with a TypeError when no answer came at all; an abort or a timeout says nothing of the network.
    if (cause instanceof TypeError) noteNetworkFailure();
    throw new ApiError(0, cause instanceof Error ? cause.message : 'Network request failed');
  }
  noteAnswer();

  if (response.ok && !asksForJson(headers)) return { body: (await response.blob()) as T, headers: response.headers };

  const text = await response.text();
  let body: unknown;
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
    throw new ApiError(response.status, message, response.statusText, body);
  }
  return { body: body as T, headers: response.headers };
}
