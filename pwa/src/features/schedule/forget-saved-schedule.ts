import { onSignOutClearPerUserData } from '../../lib/per-user-data.ts';

/**
 * Deletes the signed-out user's kept schedule (today's and the next two days' patients) on
 * sign-out. Registered at start-up; the IndexedDB code loads only when a sign-out happens.
 */
export function forgetSavedScheduleOnSignOut(): () => void {
  return onSignOutClearPerUserData(async ({ email }) => {
    if (!email) return;
    const { deleteSavedSchedules } = await import('./api/get-schedule.ts');
    await deleteSavedSchedules(email);
  });
}
