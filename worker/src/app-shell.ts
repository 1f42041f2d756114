import type { Env } from './env.ts';

/**
 * The PWA's client-side routes. "/" is the prerendered landing page, served straight from the
 * assets; every other route gets the app shell. Paths outside this list get the shell too (it
 * renders the not-found page) but with a 404 status, so crawlers and tools see the truth.
 */
const APP_ROUTES = [/^\/$/, /^\/(login|signup|appointment|review)\/?$/, /^\/offers\/[^/]+\/?$/, /^\/dashboard(\/.*)?$/];

/** pwa/dist/route-preloads.json, written by the build (pwa/scripts/route-preloads.ts). */
type RoutePreload = { path: string; modules: string[]; styles: string[] };

/** Each listed route's pattern and its `Link` header, read once per isolate (the list is fixed per deployment). */
let preloadHeaders: Promise<{ pattern: URLPattern; link: string }[]> | undefined;

function loadPreloadHeaders(request: Request, env: Env) {
  const retryLater = () => {
    preloadHeaders = undefined; // asked again on the next navigation; this one goes without
    return [];
  };
  preloadHeaders ??= env.ASSETS.fetch(new URL('/route-preloads.json', request.url))
    .then(async (list) => {
      if (!list.ok) return retryLater();
      return ((await list.json()) as RoutePreload[]).map(({ path, modules, styles }) => ({
        pattern: new URLPattern({ pathname: path }),
        link: [
          ...modules.map((file) => `<${file}>; rel=modulepreload`),
          // crossorigin as the app's own <link rel=stylesheet crossorigin> (Vite's), or the preload is not reused.
          ...styles.map((file) => `<${file}>; rel=preload; as=style; crossorigin`),
        ].join(', '),
      }));
    })
    .catch(retryLater);
  return preloadHeaders;
}

/**
 * The `Link` header that has the browser fetch the route's page code (and its CSS) beside the main
 * bundle, rather than once that has run: the files the build listed for the first route whose
 * pattern (`/dashboard/payment/:id`) matches `pathname`. None without the list or a match.
 */
async function preloadLinks(request: Request, env: Env, pathname: string): Promise<string | undefined> {
  return (await loadPreloadHeaders(request, env)).find(({ pattern }) => pattern.test({ pathname }))?.link;
}

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
  const status = APP_ROUTES.some((route) => route.test(pathname)) ? 200 : 404;
  const [shell, links] = await Promise.all([
    env.ASSETS.fetch(new URL('/shell', request.url)),
    status === 200 ? preloadLinks(request, env, pathname) : undefined,
  ]);
  const headers = new Headers(shell.headers);
  if (links) headers.set('Link', links);
  return new Response(shell.body, { status, headers });
}
