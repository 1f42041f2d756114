import { framedPathOf, frameName, localizedFile } from '../../contract/frames.ts';
import type { Language } from '../../contract/languages.ts';
import { clinicInfo, withClinicInfo } from './clinic/clinic-info.ts';
import type { Env } from './platform/env.ts';
import { pageLanguage } from './platform/page-language.ts';
import { type CallApi, signedInPage } from './signed-in-page.ts';

/**
 * The PWA's client-side routes. "/" is the prerendered landing page, served straight from the
 * assets; a patient page its frame (contract/frames.ts); every other route the app shell. Paths outside this
 * list get the shell too (it
 * renders the not-found page) but with a 404 status, so crawlers and tools see the truth.
 */
const APP_ROUTES = [
  /^\/$/,
  /^\/(login|signup|book|privacy|appointment|review|developers)\/?$/,
  /^\/offers\/[^/]+\/?$/,
  /^\/l\/[^/]+\/?$/,
  /^\/kiosk(\/[^/]+)?\/?$/,
  /^\/dashboard(\/.*)?$/,
];

/** pwa/dist/route-preloads.json, written by the build (pwa/scripts/route-preloads.ts). */
type RoutePreload = { path: string; modules: string[]; styles: string[] };

/** What the shell carries for one route: the `Link` header for its code, the stylesheet tags for its CSS. */
type RouteFiles = { pattern: URLPattern; link: string; styles: string };

/** Each listed route's pattern and files, read once per isolate (the list is fixed per deployment). */
let routeFileList: Promise<RouteFiles[]> | undefined;

function loadRouteFiles(request: Request, env: Env) {
  const retryLater = () => {
    routeFileList = undefined; // asked again on the next navigation; this one goes without
    return [];
  };
  routeFileList ??= env.ASSETS.fetch(new URL('/route-preloads.json', request.url))
    .then(async (list) => {
      if (!list.ok) return retryLater();
      return ((await list.json()) as RoutePreload[]).map(({ path, modules, styles }) => ({
        pattern: new URLPattern({ pathname: path }),
        link: modules.map((file) => `<${file}>; rel=modulepreload`).join(', '),
        // crossorigin as Vite's own tags, so the chunk's import finds the sheet already there and adds none.
        styles: styles.map((file) => `<link rel="stylesheet" crossorigin href="${file}">`).join(''),
      }));
    })
    .catch(retryLater);
  return routeFileList;
}

/**
 * The files the build listed for the first route whose pattern (`/dashboard/payment/:id`) matches `pathname`:
 * its page code, announced in a `Link` header so it loads beside the main bundle rather than once that has run,
 * and its CSS, as stylesheets in the shell's head, so they are applied with the first paint rather than as a
 * restyle of the page once its code adds them. None without the list or a match.
 */
async function routeFiles(request: Request, env: Env, pathname: string): Promise<RouteFiles | undefined> {
  return (await loadRouteFiles(request, env)).find(({ pattern }) => pattern.test({ pathname }));
}

/**
 * Everything outside /api: the built PWA's files, and the app shell for navigations. `callApi` answers the API
 * calls of a page rendered with the signed-in patient's data (signed-in-page.ts).
 */
export async function serveApp(request: Request, env: Env, callApi: CallApi): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const { pathname } = new URL(request.url);
  // Every page in the reader's language (docs/languages.md): the landing page and the frames prerendered in it.
  const language = pageLanguage(request);
  const landing = pathname === '/' || pathname === '/index.html';
  const asset = await env.ASSETS.fetch(
    landing && language !== 'en' ? new URL(localizedFile('/', language), request.url) : request,
  );
  if (asset.status !== 404) {
    const isPage = (asset.headers.get('Content-Type') ?? '').startsWith('text/html') && request.method === 'GET';
    return isPage ? inLanguage(withClinicInfo(asset, await clinicInfo(env)), language) : asset;
  }
  const status = APP_ROUTES.some((route) => route.test(pathname)) ? 200 : 404;
  // A missing file (an old hashed chunk, a typo) is a plain 404, never the HTML shell; a route's
  // own dots (a message link's token, /l/c.<id>.…) do not make it a file.
  if (status === 404 && /\.[a-z0-9]+$/i.test(pathname)) return new Response('Not found', { status: 404 });
  const [files, info] = await Promise.all([
    status === 200 ? routeFiles(request, env, pathname) : undefined,
    clinicInfo(env),
  ]);
  // A patient page's prerendered frame, where the build made one (the service worker chooses it the same way): it
  // paints before any script runs (no `Link` preloads either), and the app loads once it has painted.
  const framed = status === 200 ? framedPathOf(pathname) : undefined;
  if (framed) {
    const frame = await env.ASSETS.fetch(new URL(localizedFile(`/${frameName(framed)}`, language), request.url));
    if (frame.ok) {
      const page = (await signedInPage(request, env, frame, callApi, language)) ?? new Response(frame.body, frame);
      return inLanguage(withClinicInfo(page, info), language);
    }
  }
  const shell = await env.ASSETS.fetch(new URL('/shell', request.url));
  const headers = new Headers(shell.headers);
  if (files?.link) headers.set('Link', files.link);
  const page = inLanguage(withClinicInfo(new Response(shell.body, { status, headers }), info), language);
  if (!files?.styles) return page;
  return new HTMLRewriter()
    .on('head', { element: (head) => void head.append(files.styles, { html: true }) })
    .transform(page);
}

/**
 * A page served in `language`: its `<html lang>` says so (the shell's, which the app renders in it), and caches
 * keep one copy per language asked and chosen.
 */
function inLanguage(page: Response, language: Language): Response {
  const response = new Response(page.body, page);
  response.headers.append('Vary', 'Accept-Language, Cookie');
  return new HTMLRewriter()
    .on('html', { element: (html) => void html.setAttribute('lang', language) })
    .transform(response);
}
