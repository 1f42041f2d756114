import { navigate } from 'wouter/use-browser-location';

/**
 * Kiosk mode (docs/product.md#forms): the front desk hands its tablet to a patient for their
 * missing forms. While this tab is in kiosk mode every route shows the kiosk, for that booking
 * only; once the patient is done the tablet signs out and stays locked until staff sign in again.
 */
const KIOSK_KEY = 'kiosk';

/** The booking this tab's kiosk is for, or null when the tab is not in kiosk mode. */
export function kioskBooking(): string | null {
  try {
    return sessionStorage.getItem(KIOSK_KEY);
  } catch {
    return null;
  }
}

/** Hands the tablet over for booking `bookingId`'s forms. */
export function startKiosk(bookingId: string): void {
  sessionStorage.setItem(KIOSK_KEY, bookingId);
  navigate(`/kiosk/${encodeURIComponent(bookingId)}`);
}

/** Staff take the tablet back: out of kiosk mode, to the sign-in page. */
export function endKiosk(): void {
  sessionStorage.removeItem(KIOSK_KEY);
  navigate('/login');
}
