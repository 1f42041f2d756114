// The service worker (built by vite-plugin-pwa, its precache list injected; vite.config.ts). Every built file is
// precached, so the app works with no network after one visit. A navigation is answered from the precache as the
// Worker answers it online: "/" with the prerendered landing page, a patient page with its frame (contract/frames.ts),
// so it paints before any script runs on a repeat visit and offline too, and every other path with the app shell.
// Never an API URL: API answers are not cached here (they are per user; the bookings are kept per user in
// IndexedDB instead).
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { framedPathOf, frameName } from '../../../contract/frames.ts';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const shell = createHandlerBoundToURL('/shell.html');
registerRoute(
  new NavigationRoute(
    (options) => {
      const framed = framedPathOf(options.url.pathname);
      return framed ? createHandlerBoundToURL(`/${frameName(framed)}.html`)(options) : shell(options);
    },
    { denylist: [/^\/api(\/|$)/] },
  ),
);

// An update waits for the patient's 'Reload' (src/lib/service-worker.ts asks for it with this message); the first
// install takes charge of the page already open, so a patient who goes offline right after the first visit
// still gets the lazy chunks from the cache.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
