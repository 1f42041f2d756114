import type { Env } from './env.ts';

/**
 * The PWA's client-side routes. "/" is the prerendered landing page, served straight from the
 * assets; every other route gets the app shell. Paths outside this list get the shell too (it
 * renders the not-found page) but with a 404 status, so crawlers and tools see the truth.
 */
const APP_ROUTES = [/^\/$/, /^\/(login|signup|appointment|review)\/?$/, /^\/dashboard(\/.*)?$/];

/** Everything outside /api: the built PWA's files, and the app shell for navigations. */
export async function serveApp(request: Request, env: Env): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const asset = await env.ASSETS.fetch(request);
  if (asset.status !== 404) return asset;
  const { pathname } = new URL(request.url);
  // A missing file (an old hashed chunk, a typo) is a plain 404, never the HTML shell.
  if (/\.[a-z0-9]+$/i.test(pathname)) return new Response('Not found', { status: 404 });
  const shell = await env.ASSETS.fetch(new URL('/shell', request.url));
  const status = APP_ROUTES.some((route) => route.test(pathname)) ? 200 : 404;
  return new Response(shell.body, { status, headers: shell.headers });
}
