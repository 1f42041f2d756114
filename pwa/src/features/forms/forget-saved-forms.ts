import { onSignOutClearPerUserData } from '../../lib/per-user-data.ts';

/**
 * Deletes the signed-out user's kept forms (questions and their answers) on sign-out. Registered at
 * start-up; the IndexedDB code loads only when a sign-out happens.
 */
export function forgetSavedFormsOnSignOut(): () => void {
  return onSignOutClearPerUserData(async ({ email }) => {
    if (!email) return;
    const { deleteSavedForms } = await import('./api/booking-forms.ts');
    await deleteSavedForms(email);
  });
}
