// A page's first data, requested beside the app's code rather than once that code has loaded and rendered
// (issue 31: one round trip less before My Appointments or the payment page shows the patient's data). The entry
// requests it once the page has painted (main.tsx); the app's first call for the same path with the same token
// takes the answer (http.ts) instead of asking again.
import { firstDataPaths } from './api-paths.ts';
import { readAccessToken, unexpiredAccessClaims } from './stored-access-token.ts';

/** Answers not taken by then are dropped: a later call asks the server again. */
const KEPT_MS = 10_000;

const early = new Map<string, Promise<Response>>();
const keyOf = (path: string, authorization: string) => `${authorization} ${path}`;

/**
 * Requests the first data of the page at `pathname` with the stored access token, when the page has some and the
 * token is valid (else the app asks, and renews the token, as usual).
 */
export function requestFirstData(pathname: string): void {
  const claims = unexpiredAccessClaims();
  const token = readAccessToken();
  let paths: string[];
  try {
    paths = claims && token ? firstDataPaths(pathname, claims.email) : [];
  } catch {
    return; // a malformed address: the page says so once it runs
  }
  if (!token) return;
  const authorization = `Bearer ${token}`;
  for (const path of paths) {
    const key = keyOf(path, authorization);
    const answer = fetch(`/api${path}`, { headers: { Accept: 'application/json', Authorization: authorization } });
    // A failure is the taker's to handle; untaken, it is nobody's.
    answer.catch(() => undefined);
    early.set(key, answer);
    setTimeout(() => early.delete(key), KEPT_MS);
  }
}

/** The early answer to GET /api`path` with this Authorization header, once; undefined when there is none. */
export function takeEarlyAnswer(path: string, authorization: string | null): Promise<Response> | undefined {
  if (!authorization) return undefined;
  const key = keyOf(path, authorization);
  const answer = early.get(key);
  early.delete(key);
  return answer;
}
