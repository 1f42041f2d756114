import { onSignOutClearPerUserData } from '../../lib/per-user-data.ts';

/**
 * Deletes the signed-out user's saved bookings on sign-out. Registered at start-up (whatever page
 * the user signs out from); IndexedDB code loads only when a sign-out happens.
 */
export function forgetSavedBookingsOnSignOut(): () => void {
  return onSignOutClearPerUserData(async ({ email }) => {
    if (!email) return;
    const { deleteSavedBookings } = await import('./api/saved-bookings.ts');
    await deleteSavedBookings(email);
  });
}
