import { onSignOutClearPerUserData } from '../../lib/per-user-data.ts';

/**
 * Deletes the signed-out user's saved bookings on sign-out, once a copy being written has been (the hint is
 * cleared first, so no new one starts). Registered at start-up (whatever page the user signs out from); IndexedDB
 * code loads only when a sign-out happens.
 */
export function forgetSavedBookingsOnSignOut(): () => void {
  return onSignOutClearPerUserData(async ({ email }) => {
    if (!email) return;
    const [{ bookingsSaved }, { deleteSavedBookings }] = await Promise.all([
      import('./api/get-my-bookings.ts'),
      import('./api/saved-bookings.ts'),
    ]);
    await bookingsSaved();
    await deleteSavedBookings(email);
  });
}
