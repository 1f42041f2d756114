import { SESSION_COOKIE } from '../../contract/frames.ts';
import type { Language } from '../../contract/languages.ts';
import { requireUser } from './people/auth.ts';
import type { User } from './people/data/users.ts';
import type { Env } from './platform/env.ts';
import { cookieOf, HttpError } from './platform/http.ts';

/** The Worker's own API (index.ts), called as the page's code would call it. */
export type CallApi = (request: Request) => Promise<Response>;

/** The access token the navigation's session cookie carries (pwa/src/lib/session-cookie.ts), if any. */
const sessionToken = (request: Request) => cookieOf(request, SESSION_COOKIE.name);

/** The patient the token is a live session of (as the API checks it), else null. */
async function patientOf(token: string, env: Env): Promise<User | null> {
  try {
    return await requireUser(
      new Request('https://session.invalid/', { headers: { Authorization: `Bearer ${token}` } }),
      env,
    );
  } catch (cause) {
    if (!(cause instanceof HttpError)) console.error('The session cookie could not be checked', cause);
    return null;
  }
}

/**
 * The page rendered with the signed-in patient's data over its `frame` (issue 31: the page paints with the
 * patient's list, as fast as a static page, instead of with a spinner that the app's code replaces): for a
 * navigation whose session cookie holds a live access token, to a page with first data (My Appointments, a payment
 * page, the booking page: pwa/src/lib/rendered-data-paths.ts). The data is the API's own answers to the calls the
 * page makes first, with that token, so the page shows what the API would answer and nothing else; it is carried
 * in the page too, for the app's first render (pwa/src/lib/first-answers.ts).
 * Null (the plain frame is served) without a cookie, for an expired, revoked or forged token, or when the page's
 * first answer is not there, and for a page without first data.
 */
export async function signedInPage(
  request: Request,
  env: Env,
  frame: Response,
  callApi: CallApi,
  language: Language,
): Promise<Response | null> {
  // A test stack's pinned clock (platform/clock.ts) is the browser's too, but the page's code renders here on the
  // Worker's real one: the plain frame, which the app fills in the browser, cannot disagree with the browser.
  if (request.headers.has('X-Test-Clock')) return null;
  const token = request.method === 'GET' ? sessionToken(request) : undefined;
  const patient = token ? await patientOf(token, env) : null;
  if (!token || !patient) return null;
  const { pathname, search } = new URL(request.url);
  const answer = async (apiPath: string) => {
    const response = await callApi(
      new Request(new URL(`/api${apiPath}`, request.url), {
        headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
      }),
    );
    return response.ok ? response.json() : undefined;
  };
  let page: { root: string; data: string } | null;
  try {
    // Loaded on the first page it renders, not with every request the Worker answers: it is the whole app.
    const { renderSignedIn } = await import('#page-renderer');
    page = await renderSignedIn(
      pathname + search,
      { email: patient.email, verified: patient.emailVerified },
      answer,
      language,
    );
  } catch (cause) {
    console.error(`${pathname} could not be rendered with the patient's data`, cause);
    return null;
  }
  if (!page) return null;
  const { root, data } = page;
  const headers = new Headers(frame.headers);
  // One patient's page: kept by no cache, and another cookie is another page.
  headers.set('Cache-Control', 'private, no-store');
  headers.append('Vary', 'Cookie');
  headers.delete('Content-Length');
  headers.delete('ETag');
  return new HTMLRewriter()
    .on('#root', {
      element(element) {
        // Not a frame any more: the app hydrates this page (its first render draws the same, from the same
        // answers), where it renders over a frame. Inert still, until it has.
        element.removeAttribute('data-frame');
        element.setInnerContent(root, { html: true });
      },
    })
    .on('body', { element: (body) => void body.append(data, { html: true }) })
    .transform(new Response(frame.body, { status: 200, headers }));
}
