// API paths the entry requests before the app has loaded (early-data.ts), so it names no other module but the
// import-free route-paths.ts; the pages that load them use the same (get-my-bookings.ts, dependants.ts;
// cache-keys.ts's bookingKey).
import { pathOf } from './route-paths.ts';

/** GET /api/bookings?email=: a patient's bookings (My Appointments). */
export const myBookingsPath = (email: string) => pathOf('GET /bookings', { query: { email } });

/** GET /api/bookings/:id: one booking, as the payment page loads it. */
export const bookingPath = (id: string) => pathOf('GET /bookings/:id', { params: { id } });

/** GET /api/payments/provider: which provider's card form the payment page draws while its payment is prepared. */
export const CARD_PROVIDER_PATH = pathOf('GET /payments/provider');

/** GET /api/users/me/dependants: the patient's family (My Appointments groups the list by person). */
export const DEPENDANTS_PATH = pathOf('GET /users/me/dependants');

/**
 * The API paths (under /api) whose answers the page at `pathname` shows first, for the patient `email`: requested
 * early by the entry (early-data.ts), and by the Worker for a page it renders with them (first-answers.ts). None
 * for other pages; throws on a malformed address.
 */
export function firstDataPaths(pathname: string, email: string): string[] {
  if (pathname === '/dashboard') return [myBookingsPath(email), DEPENDANTS_PATH];
  const payment = /^\/dashboard\/payment\/([^/]+)$/.exec(pathname)?.[1];
  return payment ? [bookingPath(decodeURIComponent(payment)), CARD_PROVIDER_PATH] : [];
}
