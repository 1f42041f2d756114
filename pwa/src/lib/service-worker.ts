import { registerSW } from 'virtual:pwa-register';
import { notify } from './notify.ts';

export const UPDATE_TOAST_TEXT = 'A new version is available';
/** Long-lived tabs look for a new version this often (browsers also look on every navigation). */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** After the user's Reload, how long the page waits for the new worker to take over before reloading anyway. */
export const TAKE_OVER_WAIT_MS = 5000;

/**
 * Registers /sw.js (scope /), which precaches the app (vite.config.ts). Loaded with import() after
 * the window's load event, so neither it nor workbox-window is on the landing page's critical path.
 *
 * A new version waits until the user asks for it: a toast offers 'Reload', which activates the
 * waiting worker, and the page reloads once that worker controls it. A tab whose worker was
 * activated from another tab is offered the reload too, rather than reloaded under the user's feet.
 */
export function registerServiceWorker(): void {
  let reloadAsked = false;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };

  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      notify.action(
        UPDATE_TOAST_TEXT,
        {
          label: 'Reload',
          onClick: () => {
            reloadAsked = true;
            void updateSW(true);
            // The page reloads once the new worker controls it (onNeedReload). Should that hand-over not
            // come (Chromium, once in a loaded test run: the toast gone and the page as it was), it
            // reloads anyway: the user asked for it, and a worker still waiting then offers itself again.
            window.setTimeout(reload, TAKE_OVER_WAIT_MS);
          },
        },
        'app-update',
      );
    },
    onNeedReload() {
      if (reloadAsked) reload();
      else notify.action(UPDATE_TOAST_TEXT, { label: 'Reload', onClick: reload }, 'app-update');
    },
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine && !registration.installing)
          void registration.update().catch(() => {
            // Offline or the server is down: the next interval checks again.
          });
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error: unknown) {
      // A browser may refuse service workers (private windows, a policy): the app works online all
      // the same, only not offline. Not an error of the app.
      console.warn('Offline use is off: the browser did not register the service worker', error);
    },
  });
}
