// The shared base styles first: the features' own CSS (imported by their components) comes after it.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { listenForInstallPrompt } from './lib/install-prompt.ts';
import { watchOutbox } from './lib/watch-outbox.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Before anything renders: the browser may offer installation early.
listenForInstallPrompt();

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// index.html carries the prerendered landing page; shell.html (every other path) has an empty #root.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);

/** Runs `task` once the page has loaded, off the critical path of the first paint. */
function afterLoad(task: () => void) {
  if (document.readyState === 'complete') task();
  else window.addEventListener('load', task, { once: true });
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
});
