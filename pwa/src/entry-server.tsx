import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './app/app.tsx';

/** Renders a route to HTML at build time (used by scripts/prerender.ts); fails on any error a component throws. */
export async function render(path: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <App ssrPath={path} />
    </StrictMode>,
    // One piece: React would otherwise move a large page out of its Suspense boundary behind an inline script,
    // which the CSP forbids and a page that paints before any script runs could not use.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  if (errors.length > 0) throw new Error(`prerendering ${path} failed`, { cause: errors[0] });
  const html = await new Response(prelude).text();
  if (html.includes('<script') || html.includes('<!--$?-->'))
    throw new Error(`prerendering ${path} left a part of the page to a script`);
  return html;
}
