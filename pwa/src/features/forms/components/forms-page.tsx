import { Link, useParams } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useBooking } from '../../payments/api/get-booking.ts';
import { saveFormAnswers, useBookingForms } from '../api/booking-forms.ts';
import { FormsList } from './forms-list.tsx';
import '../forms.css';

/**
 * docs/product-booking.md#forms, /dashboard/forms/:id (signed in): the forms a visit needs, each to fill,
 * renew or change; opened from this phone's copy when offline, and saved to its outbox then.
 */
export function FormsPage() {
  const { id } = useParams<{ id: string }>();
  const { user } = useSession();
  const { data, error } = useBookingForms(id, user?.email ?? null);
  const { data: booking } = useBooking(id);
  // A family member's visit is named: the parent fills their child's forms knowing whose they are.
  const someoneElse = booking && user?.displayName && booking.patientName !== user.displayName;
  return (
    <section className="dashboard-page forms-page" aria-labelledby="forms-title">
      <h1 id="forms-title">{someoneElse ? `Forms for ${booking.patientName}` : 'Forms for your visit'}</h1>
      {booking && (
        <p className="section-lead">
          {booking.patientName}: {booking.treatment} on {booking.appointmentDate} at {booking.slot}
        </p>
      )}
      {error && !data ? (
        <p role="alert" className="form-error">
          The forms could not be loaded: {errorText(error)}
        </p>
      ) : !data ? (
        <Spinner label="Loading the forms" />
      ) : (
        <>
          {data.offline && (
            <p className="callout" role="status">
              You are offline: these are the forms as this phone last loaded them. What you save is sent when you are
              back online.
            </p>
          )}
          <FormsList forms={data.forms} onSave={(form, answers) => saveFormAnswers({ bookingId: id }, form, answers)} />
        </>
      )}
      <p className="forms-page__back">
        <Link href="/dashboard">Back to My Appointments</Link>
      </p>
    </section>
  );
}
