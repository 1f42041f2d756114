// The access token's copy in a cookie, so a navigation to My Appointments or the booking page carries the session
// and the Worker can send the page with the patient's data in it (contract/frames.ts, SESSION_COOKIE). Written and
// removed with the stored token (access-token.ts); the token itself stays in localStorage, where the API calls read
// it. The cookie is sent only on the pages under its paths, never to /api, and only from this site
// (SameSite=Strict).
import { SESSION_COOKIE } from '../../../contract/frames.ts';
import { readAccessToken, storedAccessClaims } from './stored-access-token.ts';

const attributes = (path: string) =>
  `Path=${path}; SameSite=Strict${globalThis.location?.protocol === 'https:' ? '; Secure' : ''}`;

/**
 * Makes the cookie say what localStorage says: the stored access token until it expires, or nothing. Run when the
 * token changes and when the app starts (a session from before the cookie existed, a token that expired).
 */
export function syncSessionCookie(now = Date.now()): void {
  if (typeof document === 'undefined') return;
  const token = readAccessToken();
  const expiresAt = storedAccessClaims()?.expiresAt ?? 0;
  const seconds = Math.floor((expiresAt - now) / 1000);
  // Written every time: a page outside its path cannot read it to compare. The Cookie Store API would be no
  // simpler, and is missing from older browsers the app supports.
  for (const path of SESSION_COOKIE.paths) {
    // biome-ignore lint/suspicious/noDocumentCookie: see above.
    document.cookie =
      token && seconds > 0
        ? `${SESSION_COOKIE.name}=${token}; Max-Age=${seconds}; ${attributes(path)}`
        : `${SESSION_COOKIE.name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(path)}`;
  }
}
