import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { client } from '../../../lib/client.ts';

/**
 * Kiosk mode (docs/product-booking.md#forms): the front desk hands its tablet to a patient for their missing
 * forms. It is the device's, not a tab's: the kiosk's token (good for that visit's forms only) is
 * kept in localStorage, which every tab shares, and the staff are signed out of the browser as it
 * starts, so no tab, new or old, holds their session. Every route then shows the kiosk; once the
 * patient is done the tablet locks, and only a staff sign-in ends kiosk mode.
 */
const KIOSK_KEY = 'kiosk';
const LOCKED = 'locked';

/** The kiosk's state on this device: the visit's token, locked, or none (not in kiosk mode). */
export type KioskState = { token: string } | 'locked' | null;

function read(): string | null {
  try {
    return localStorage.getItem(KIOSK_KEY);
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab starting, locking or ending the kiosk.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KIOSK_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(value: string | null): void {
  if (value === null) localStorage.removeItem(KIOSK_KEY);
  else localStorage.setItem(KIOSK_KEY, value);
  for (const listener of listeners) listener();
}

const toState = (value: string | null): KioskState =>
  value === null ? null : value === LOCKED ? LOCKED : { token: value };

/** The kiosk's state now (outside React: the routes' first decision). */
export const kioskState = (): KioskState => toState(read());

/** The kiosk's state, following every tab's changes. */
export function useKiosk(): KioskState {
  const value = useSyncExternalStore(subscribe, read, () => null);
  return toState(value);
}

/**
 * Hands the tablet over for booking `bookingId`'s forms: the kiosk's token first, then the staff
 * signed out of this browser (every tab), then the kiosk.
 */
export async function startKiosk(bookingId: string, signOut: (options: { everywhere: false }) => Promise<void>) {
  const { token } = await client('POST /bookings/:id/kiosk', { params: { id: bookingId } });
  write(token);
  await signOut({ everywhere: false });
  navigate('/kiosk');
}

/** The patient is done: the tablet shows nothing of them any more, until staff sign in. */
export const lockKiosk = () => write(LOCKED);

/** Staff signed in on the tablet: kiosk mode ends. */
export const endKiosk = () => write(null);
