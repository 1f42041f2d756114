import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { AppProvider } from '../app/provider.tsx';

type Handler = (request: Request) => Response | Promise<Response>;

/** Fakes the network: every fetch goes to `handler` as a Request; returns the spy to inspect calls. */
export function stubFetch(handler: Handler) {
  const spy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), 'http://localhost'), init)),
  );
  vi.stubGlobal('fetch', spy);
  return spy;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs matchMedia so that exactly the given queries match. */
export function stubMediaQueries(matching: string[]) {
  const matchMedia = (query: string) => ({
    matches: matching.includes(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  });
  vi.stubGlobal('matchMedia', matchMedia);
}

/** Renders UI inside the app's providers and a browser-location router at `path`, with a fresh SWR cache. */
export function renderWithProviders(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  window.history.replaceState(null, '', path);
  return render(
    <AppProvider swr={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
      <Router>{ui}</Router>
    </AppProvider>,
  );
}
