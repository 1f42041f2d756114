// The patient pages a visit opens signed in or on the way to it (issue 31), prerendered at build time as frames:
// each page as it shows before anyone's data (pwa/scripts/prerender.ts). Plain values, so the Worker (which serves
// a route's frame online, worker/src/app-shell.ts) and the service worker (which serves it from its
// precache, pwa/src/sw/sw.ts) choose it the same way.

/** The pages with a frame. A path's parameter is rendered as `_`: the frame is the same for every id. */
export const FRAMES = ['/login', '/signup', '/book', '/appointment', '/dashboard', '/dashboard/payment/:id'] as const;
export type FramedPath = (typeof FRAMES)[number];

/** The frame's built file, without `.html`: `/dashboard/payment/:id` -> `frames/dashboard-payment-id`. */
export const frameName = (path: FramedPath) => `frames/${path.slice(1).replace(/\/:?/g, '-')}`;

/**
 * Where the build put a page's file in `language` (pwa/scripts/prerender.ts): English at the root, every other
 * language under `/i18n/<language>/` (docs/languages.md). `file` is the English one: `/`, `/frames/login`.
 */
export const localizedFile = (file: string, language: string) =>
  language === 'en' ? file : `/i18n/${language}${file}`;

/** The page of FRAMES that `pathname` opens (`/dashboard/payment/b-1` -> `/dashboard/payment/:id`), if any. */
export function framedPathOf(pathname: string): FramedPath | undefined {
  return FRAMES.find((path) => new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}$`).test(pathname));
}

/**
 * The cookie that carries the patient's access token on a navigation (the API takes it only as a bearer token),
 * so the Worker can render a page under its paths with their data (worker/src/signed-in-page.ts; the
 * pages: pwa/src/lib/rendered-data-paths.ts). One cookie per path, the same token in each: their paths keep it
 * off every other request, so the API never sees it and it can authorize nothing there.
 */
export const SESSION_COOKIE = { name: 'clinic_session', paths: ['/dashboard', '/appointment'] } as const;

/** The id of the JSON block that carries the API answers such a page was rendered with (pwa/src/lib/first-answers.ts). */
export const FIRST_ANSWERS_ID = 'first-answers';
