import { render, screen } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Cache } from 'swr';
import { vi } from 'vitest';
import { Router } from 'wouter';
import type { Booking } from '../../../contract/bookings.ts';
import { AppProvider } from '../app/provider.tsx';
import { LanguageProvider } from '../lib/i18n.tsx';

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

/** The Worker's answer to a schedule change's `?dryRun=1`: nothing changed; the bookings it would strand. */
export const dryRunAnswer = (stranded: unknown[] = []) =>
  json({ acknowledged: false, dryRun: true, message: 'Nothing changed (a dry run)', stranded });

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

/**
 * Puts `ui`'s server-rendered markup on the page, as the build's prerender does; `hydrate()` then takes it over,
 * as the app does once its code has loaded.
 */
export function prerendered(ui: ReactElement) {
  const container = document.body.appendChild(document.createElement('div'));
  container.innerHTML = renderToString(ui);
  return { container, hydrate: () => render(ui, { container, hydrate: true }) };
}

/** Renders UI inside the app's providers and a browser-location router at `path`, with a fresh SWR cache (or `cache`). */
export function renderWithProviders(
  ui: ReactNode,
  { path = '/', cache = new Map() }: { path?: string; cache?: Map<string, unknown> } = {},
) {
  window.history.replaceState(null, '', path);
  return render(
    <LanguageProvider initial="en">
      <AppProvider swr={{ provider: () => cache as Cache, dedupingInterval: 0, shouldRetryOnError: false }}>
        <Router>{ui}</Router>
      </AppProvider>
    </LanguageProvider>,
  );
}

/** The kind of the toast showing `text` ('success', 'error', …), once it shows. */
export async function findToast(text: string): Promise<string | null> {
  const toast = (await screen.findByText(text)).closest('[data-sonner-toast]');
  if (!toast) throw new Error(`"${text}" is not in a toast`);
  return toast.getAttribute('data-type');
}

/** `METHOD /path?query` of a faked request, e.g. 'GET /api/jwt?email=a%40b.c'. */
export const describeRequest = (request: Request) => {
  const url = new URL(request.url);
  return `${request.method} ${url.pathname}${url.search}`;
};

/**
 * An access token shaped as the Worker's (its claims readable; the signature is no real one, which only the
 * Worker would check), for `email`, expiring `expiresInSeconds` from now.
 */
export function accessTokenFor(
  email: string,
  { expiresInSeconds = 1800, role = 'patient', verified = true } = {},
): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ email, role, verified, ver: 1, sub: `id-${email}`, exp })}.signature`;
}

/** Stores a signed-in session as the app leaves it: the Worker's access token and the session hint. */
export function storeSession(email: string, accessToken = `access:${email}`, { emailVerified = true } = {}) {
  localStorage.setItem('accessToken', accessToken);
  localStorage.setItem(
    'session',
    JSON.stringify({ uid: `uid-${email}`, email, emailVerified, displayName: null, photoURL: null }),
  );
}

/**
 * A booking as GET /api/bookings answers it: an unpaid, active 30-minute Teeth Cleaning on Nov 25, 2026 at 9:00,
 * free to cancel and move until the day before, with no doctor yet; `fields` changes any of it.
 */
export function aBooking(fields: Partial<Booking> = {}): Booking {
  return {
    _id: 'b-1',
    treatment: 'Teeth Cleaning',
    treatmentId: 'teeth-cleaning',
    appointmentDate: 'Nov 25, 2026',
    date: '2026-11-25',
    slot: '09.00 AM - 09.30 AM',
    startsAt: '2026-11-25T14:00:00.000Z',
    patientName: 'Jamie Patient',
    patient: 'Jamie Patient',
    email: 'patient@clinic.test',
    phone: '',
    price: 80,
    paid: false,
    payBy: null,
    payAtClinic: false,
    paymentRule: 'full',
    deposit: null,
    noShowFee: 0,
    lateCancelFee: 0,
    balanceDue: 0,
    durationMinutes: 30,
    doctor: null,
    status: 'active',
    cancelNote: null,
    freeCancellationUntil: '2026-11-24T14:00:00.000Z',
    rescheduleUntil: '2026-11-24T14:00:00.000Z',
    familyVisitId: null,
    formsToFill: 0,
    ...fields,
  };
}
