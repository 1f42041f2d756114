// The app rendered to HTML: at build time, each page's frame (scripts/prerender.ts); on the Worker, a signed-in
// page with the patient's data (worker/src/signed-in-page.ts). Built once, for both (prerender.ts).
import { type ReactNode, StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { FIRST_ANSWERS_ID } from '../../contract/frames.ts';
import type { Language } from '../../contract/languages.ts';
import { App } from './app/app.tsx';
import { loadLanguage } from './lib/i18n.tsx';
import { renderedDataPaths } from './lib/rendered-data-paths.ts';

/** The markup of `element`, whole; fails on any error a component throws. */
async function toHtml(element: ReactNode, what: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>{element}</StrictMode>,
    // One piece: React would otherwise move a large page out of its Suspense boundary behind an inline script,
    // which the CSP forbids and a page that paints before any script runs could not use.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  if (errors.length > 0) throw new Error(`rendering ${what} failed`, { cause: errors[0] });
  const html = await new Response(prelude).text();
  if (html.includes('<script') || html.includes('<!--$?-->'))
    throw new Error(`rendering ${what} left a part of the page to a script`);
  return html;
}

/** A page's frame in `language`: the route as it shows before anyone's data (build time). */
export async function render(path: string, language: Language = 'en'): Promise<string> {
  await loadLanguage(language);
  return toHtml(<App ssrPath={path} language={language} />, `${path} (${language})`);
}

/**
 * The page at `path` (with its query, if any) as the signed-in patient sees it (the Worker, for a navigation with
 * their session): `answer` gives the JSON answer of a GET /api path as the page's own call would get it
 * (undefined when that call fails). Answers the markup of the app's root and the data block that carries the
 * answers to the app's first render, or null when the page has no first data or its first answer failed (the
 * frame is served then).
 */
export async function renderSignedIn(
  path: string,
  patient: { email: string; verified: boolean },
  answer: (apiPath: string) => Promise<unknown>,
  language: Language = 'en',
): Promise<{ root: string; data: string } | null> {
  let paths: string[];
  try {
    const query = path.indexOf('?');
    paths =
      query < 0
        ? renderedDataPaths(path, patient.email)
        : renderedDataPaths(path.slice(0, query), patient.email, path.slice(query));
  } catch {
    return null; // a malformed address: the page says so once it runs
  }
  const answers = Object.fromEntries(
    (await Promise.all(paths.map(async (apiPath) => [apiPath, await answer(apiPath)] as const))).filter(
      ([, body]) => body !== undefined,
    ),
  );
  const [main] = paths;
  if (main === undefined || !(main in answers)) return null;
  const first = { email: patient.email, answers };
  const user = { uid: '', email: patient.email, emailVerified: patient.verified, displayName: null, photoURL: null };
  await loadLanguage(language);
  const root = await toHtml(
    <App ssrPath={path} firstAnswers={first} renderedFor={user} language={language} />,
    `${path} signed in`,
  );
  // "<" never appears inside the block, so no text can close the script element early.
  const json = JSON.stringify(first).replaceAll('<', '\\u003c');
  return { root, data: `<script id="${FIRST_ANSWERS_ID}" type="application/json">${json}</script>` };
}
