// React's DOM renderer, in a module of its own: the entry requests it beside the app's code (main.tsx) and the app
// mounts with it (start.tsx), so its evaluation is a task of its own rather than part of the app's.
import { type ReactNode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * Hydrates the page in `root` with `app` (markup the same render drew: the landing page, a sign-in page's frame, a
 * page the Worker rendered) or renders `app` over it. Either in a transition: React renders the page in slices of a
 * few milliseconds, so a tap is never kept waiting behind it (a hydration out of one is one task: 18–19 ms of
 * My Appointments in a Chromium trace, 75 at ×4).
 */
export function mount(root: HTMLElement, app: ReactNode, hydrate: boolean): void {
  const page = () => `${location.pathname}${location.search}`;
  const hydrating = page();
  startTransition(() => {
    if (hydrate) {
      hydrateRoot(root, app, {
        // Hydrated in slices, a page can be left before its last slice (a tap on a link already live): React then
        // draws the new page instead of the rest of the old markup, as it should. Only a mismatch on the page the
        // markup was drawn for is an error of the app.
        onRecoverableError(error) {
          if (page() === hydrating) reportError(error);
          else console.warn('The page changed while it was being hydrated; React drew the new one', error);
        },
      });
    } else createRoot(root).render(app);
  });
}
