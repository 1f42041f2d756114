// The entry the HTML names, kept to a few hundred bytes: the page paints from its prerendered HTML and the style
// sheet inlined in it (scripts/prerender.ts), and only then does the app's code start to load (start.tsx), so
// no script stands between a visit and its first paint (docs/performance.md#as-fast-as-a-static-page-issue-31).
// The style sheet of every page's first paint, inlined into the HTML: the shared base styles first, then the
// landing page's own (which start.tsx imports with the page; scripts/first-load.test.ts checks it brings no other).
import './styles.css';
import './features/landing/landing.css';
import './features/contact/contact.css';
import './features/auth/verify-email-banner.css';
import './features/reviews/testimonials.css';
import { FIRST_ANSWERS_ID } from '../../contract/frames.ts';
import { afterPaint } from './lib/after-paint.ts';
import { requestFirstData } from './lib/early-data.ts';

function start() {
  // Beside the app's code, not after it has run: the patient's data the page shows first, and the page's own
  // code (a frame names it, scripts/prerender.ts), in a task of its own: each link costs the main thread a
  // little, and one long task would keep a tap waiting.
  // (Not for a page the Worker rendered with that data: it carries it, lib/first-answers.ts.)
  if (!document.getElementById(FIRST_ANSWERS_ID)) requestFirstData(location.pathname);
  void import('./start.tsx');
  // Beside it, not once it has run: React's DOM renderer, which start.tsx imports, evaluated in a task of its own.
  void import('./lib/dom-renderer.ts');
  setTimeout(() => {
    const modules = document.querySelector<HTMLMetaElement>('meta[name="route-modules"]')?.content.split(' ') ?? [];
    for (const href of modules.filter(Boolean))
      document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
  }, 0);
}

// A tab opened in the background paints nothing until shown (nor runs animation frames): start at once there.
if (document.visibilityState === 'hidden') start();
else afterPaint(start);
