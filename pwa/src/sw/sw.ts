// The service worker (built by vite-plugin-pwa, its precache list injected; vite.config.ts). Every built file is
// precached, so the app works with no network after one visit. A navigation is answered from the precache as the
// Worker answers it online: "/" with the prerendered landing page, a patient page with its frame (contract/frames.ts),
// so it paints before any script runs on a repeat visit and offline too, and every other path with the app shell.
// Never an API URL: API answers are not cached here (they are per user; the bookings are kept per user in
// IndexedDB instead).
import { clientsClaim } from 'workbox-core';
import { addRoute, cleanupOutdatedCaches, createHandlerBoundToURL, precache } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { framedPathOf, frameName, localizedFile } from '../../../contract/frames.ts';
import { isLanguage, LANGUAGE_CACHE, type Language, pickLanguage } from '../../../contract/languages.ts';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** The language chosen on this device (src/lib/i18n.tsx keeps it here), else the browser's, as the Worker picks it. */
async function deviceLanguage(): Promise<Language> {
  try {
    const chosen = await (await caches.open(LANGUAGE_CACHE.name)).match(LANGUAGE_CACHE.key);
    const language = await chosen?.text();
    if (isLanguage(language)) return language;
  } catch {
    // no cache: the browser's language
  }
  return pickLanguage(self.navigator.languages.join(','));
}

// Before the precache's own route, which would answer "/" with the English landing page.
const shell = createHandlerBoundToURL('/shell.html');
registerRoute(
  new NavigationRoute(
    async (options) => {
      const { pathname } = options.url;
      const framed = framedPathOf(pathname);
      const file =
        pathname === '/' || pathname === '/index.html' ? '/index.html' : framed && `/${frameName(framed)}.html`;
      if (!file) return shell(options);
      return createHandlerBoundToURL(localizedFile(file, await deviceLanguage()))(options);
    },
    { denylist: [/^\/api(\/|$)/] },
  ),
);
addRoute();

// An update waits for the patient's 'Reload' (src/lib/service-worker.ts asks for it with this message); the first
// install takes charge of the page already open, so a patient who goes offline right after the first visit
// still gets the lazy chunks from the cache.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
