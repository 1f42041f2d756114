// The app, started by main.tsx once the page has painted.
import { StrictMode } from 'react';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/routes.tsx';
import { afterPaint } from './lib/after-paint.ts';
import { refreshClinicInfo } from './lib/clinic-info.ts';
import { CLINIC_TIME_ZONE } from './lib/clinic-time-zone.ts';
import { firstAnswersInPage } from './lib/first-answers.ts';
import { deviceLanguage, loadLanguage, PSEUDO_LOCALE } from './lib/i18n.tsx';
import { listenForInstallPrompt } from './lib/install-prompt.ts';
import { syncSessionCookie } from './lib/session-cookie.ts';
import { storedAccessClaims } from './lib/stored-access-token.ts';
import { warmDateFormats } from './lib/warm-date-formats.ts';
import { watchOutbox } from './lib/watch-outbox.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Before anything renders: the browser may offer installation early.
listenForInstallPrompt();
// The next visit to My Appointments carries the session as the stored token stands now (a session from before the
// cookie, or one that has expired meanwhile).
syncSessionCookie();

// index.html carries the prerendered landing page, hydrated, as are the sign-in pages' frames and a page the Worker
// rendered with the signed-in patient's data (which carries that data for this first render, lib/first-answers.ts,
// so the app draws what the server drew and only attaches to it). Another patient page's frame (data-frame: the
// page as it shows before its data) and shell.html (every other path, an empty #root) are rendered over: the
// first render waits for the route's code and takes who is signed in from the saved session, so it replaces the
// frame with the page, not with a spinner or a progress bar. Not for long: past a second on a slow connection,
// the layout and a spinner say that something is coming.
const firstAnswers = firstAnswersInPage(storedAccessClaims()?.email);
// The page is drawn in the language chosen on this device, else the one the Worker served it in (docs/languages.md).
// A page in another (from the service worker's cache, chosen on another tab meanwhile) is drawn over, not hydrated.
const language = deviceLanguage();
const hydrating =
  root.hasChildNodes() &&
  root.dataset.frame === undefined &&
  document.documentElement.lang === language &&
  !PSEUDO_LOCALE;
document.documentElement.lang = language;
// Not the landing page or a sign-in page, drawn for nobody: a page for whoever is signed in on this device.
const forPatient = !hydrating || firstAnswers !== null;
// The page takes input once its content has been hydrated or rendered (app/page-boundary.tsx).
const app = (
  <StrictMode>
    <App fromSavedSession={forPatient} firstAnswers={firstAnswers} language={language} />
  </StrictMode>
);

// Not a top-level await, which would make the bundler split the entry into many small files.
const wait = new Promise((resolve) => setTimeout(resolve, 1000));
// A patient page's first date formatter (the clinic's today, a booking's deadlines) would cost its render some
// 50 ms at ×4 CPU: a worker loads the data it needs meanwhile. Not for the landing and sign-in pages,
// which show no date.
if (forPatient) warmDateFormats(CLINIC_TIME_ZONE);
// Hydrated (the landing page, the sign-in pages) or rendered once the route's code is there, so its lazy page
// shows at once. React's DOM renderer is a module of its own, requested with this one (main.tsx): a module and all
// it imports are evaluated in one task, and the two together made the page's longest task (85–117 ms in a
// Chromium trace at ×4 CPU, against 33–55 and 53–61 apart; docs/performance.md).
const page = Promise.race([preloadRoute(location.pathname), wait]);
// (English: its start's words are in the app already; a page's come with its code, routes.tsx.)
const words = language === 'en' ? undefined : loadLanguage(language);
const rendered = Promise.all([import('./lib/dom-renderer.ts'), page, words]).then(([{ mount }]) =>
  mount(root, app, hydrating),
);

/** Runs `task` once the page has loaded and its first render is on screen, off the first paint's path. */
function afterLoad(task: () => void) {
  const start = () => void rendered.then(() => afterPaint(task));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

afterLoad(() => {
  if ('serviceWorker' in navigator) {
    import('./lib/service-worker.ts').then(
      ({ registerServiceWorker }) => registerServiceWorker(),
      (cause: unknown) => console.error(cause),
    );
  }
  // Contact messages queued offline on an earlier visit (IndexedDB is loaded only if there are some).
  watchOutbox();
  // A page from the service worker's cache may name the clinic as it was when it was cached.
  void refreshClinicInfo();
});
