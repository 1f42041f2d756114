import { FamilyVisitDialog } from '../../features/family/components/family-visit-dialog.tsx';
import { FormAnswers } from '../../features/forms/components/form-answers.tsx';
import { SchedulePage as Schedule } from '../../features/schedule/components/schedule-page.tsx';

/**
 * docs/product-admin.md#schedule (/dashboard/schedule): the schedule, with a visit's answered forms (the forms
 * feature's) and a caller's family visit (the family feature's) composed into its dialogs.
 */
export function SchedulePage() {
  return (
    <Schedule
      visitForms={(bookingId) => <FormAnswers bookingId={bookingId} />}
      familyVisitDialog={(visit) => <FamilyVisitDialog {...visit} />}
    />
  );
}
