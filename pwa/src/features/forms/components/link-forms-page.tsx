import { Link } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { saveFormAnswers } from '../api/booking-forms.ts';
import { useLinkForms } from '../api/link-forms.ts';
import { FormsList } from './forms-list.tsx';
import '../forms.css';

/**
 * docs/product-booking.md#forms, a forms link (/l/:token from a reminder or a confirmation): the visit's
 * forms, filled in without signing in; the link is good for that visit only.
 */
export function LinkFormsPage({ token }: { token: string }) {
  const { data, error } = useLinkForms(token);
  return (
    <section className="dashboard-page" aria-labelledby="link-forms-title">
      <h1 id="link-forms-title">{data ? `Forms for ${data.patientName}` : 'Forms for the visit'}</h1>
      {data && (
        <p className="section-lead">
          {data.treatment} on {data.appointmentDate} at {data.slot}
        </p>
      )}
      {error && !data ? (
        <p role="alert" className="form-error">
          {errorText(error)}
        </p>
      ) : data ? (
        <FormsList forms={data.forms} onSave={(form, answers) => saveFormAnswers({ token }, form, answers)} />
      ) : (
        <Spinner label="Loading the forms" />
      )}
      <p>
        <Link href="/dashboard">My Appointments</Link>
      </p>
    </section>
  );
}
