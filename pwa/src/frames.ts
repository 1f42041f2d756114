/**
 * The patient pages a visit opens signed in or on the way to it (issue 31), prerendered at build time as frames:
 * each page as it shows before anyone's data (scripts/prerender.ts). The Worker serves a route's frame online
 * (route-preloads.json names it), the service worker from its precache (src/sw/sw.ts). A path's parameter is
 * rendered as `_`: the frame is the same for every id.
 */
export const FRAMES = ['/login', '/signup', '/appointment', '/dashboard', '/dashboard/payment/:id'] as const;

/** The frame's built file, without `.html`: `/dashboard/payment/:id` -> `frames/dashboard-payment-id`. */
export const frameName = (path: string) => `frames/${path.slice(1).replace(/\/:?/g, '-')}`;

/** The frame for a page's `pathname`, as its built file (`frames/x.html`), or undefined when it has none. */
export function frameFileFor(pathname: string): string | undefined {
  const path = FRAMES.find((frame) => new RegExp(`^${frame.replace(/:\w+/g, '[^/]+')}$`).test(pathname));
  return path && `${frameName(path)}.html`;
}
