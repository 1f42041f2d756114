import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './app/app.tsx';

/** Renders a route to HTML at build time (used by scripts/prerender.ts). */
export async function render(path: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <App ssrPath={path} />
    </StrictMode>,
  );
  return new Response(prelude).text();
}
