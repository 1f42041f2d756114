import { lazy } from 'react';
import { AppointmentPage as Appointment } from '../../features/appointments/components/appointment-page.tsx';
import { FamilyVisitDialog } from '../../features/family/components/family-visit-dialog.tsx';

// Only a visit kept with a card on file needs the card form: it loads then.
const CardOnFile = lazy(() =>
  import('../../features/payments/components/card-on-file.tsx').then((m) => ({ default: m.CardOnFile })),
);

/**
 * docs/product-booking.md#appointment-page (/appointment): the booking page, with the family feature's visit dialog and
 * the payments feature's card form composed in.
 */
export function AppointmentPage() {
  return (
    <Appointment
      familyVisit={(visit) => <FamilyVisitDialog {...visit} />}
      cardOnFile={(card) => <CardOnFile {...card} />}
    />
  );
}
