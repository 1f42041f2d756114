import { useSyncExternalStore } from 'react';
import type { ClinicInfo } from '../../../contract/clinic.ts';
import { send } from './http.ts';
import { pageClinic } from './page-clinic.ts';
import { pathOf } from './route-paths.ts';

export type { ClinicInfo };

/** The seed clinic's: what the build prerenders, and what shows where a page carries nothing. */
export const DEFAULT_CLINIC: ClinicInfo = {
  name: 'Smile Dental Clinic',
  address: '1200 Harbor Street, Brooklyn, NY 11201',
  phone: '+1 (555) 010-2026',
  hours: '9.00 am to 5.00pm every day',
  closure: null,
  timeZone: 'America/New_York',
  bookingHorizonDays: 60,
  languages: ['en', 'es', 'fr'],
};

const isInfo = (value: unknown): value is ClinicInfo =>
  typeof value === 'object' &&
  value !== null &&
  ['name', 'address', 'phone', 'hours'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string') &&
  ['string', 'object'].includes(typeof (value as Record<string, unknown>).closure);

/** What the page carries, when it is who the clinic is (a page cached before its place was added keeps the defaults'). */
function fromPage(): ClinicInfo | null {
  const page = pageClinic();
  return isInfo(page) ? { ...DEFAULT_CLINIC, ...page } : null;
}

let current: ClinicInfo = fromPage() ?? DEFAULT_CLINIC;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The clinic's name, address and phone, as the admin set them: first what the page carried (so the
 * first render matches the served HTML), then what GET /api/clinic answers (a page from the service
 * worker's cache may be older than the settings).
 */
export function useClinicInfo(): ClinicInfo {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}

/** Asks the Worker who the clinic is now, and shows it wherever the clinic is named. Failing quietly: the page's stays. */
export async function refreshClinicInfo(): Promise<void> {
  try {
    const fresh = await send<unknown>(pathOf('GET /clinic'), { headers: { Accept: 'application/json' } });
    if (!isInfo(fresh)) return;
    const next = { ...DEFAULT_CLINIC, ...fresh };
    if (JSON.stringify(next) === JSON.stringify(current)) return;
    current = next;
    for (const listener of listeners) listener();
  } catch {
    // Offline or refused: the clinic as the page carried it.
  }
}

/** A phone number as a tel: link: its digits and a leading "+". */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, '')}`;
