import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useClinicHours } from '../api/clinic-hours.ts';
import '../clinic-setup.css';
import { ClosuresSection } from './closures-section.tsx';
import { HoursEditor } from './hours-editor.tsx';

/** docs/product-admin.md#clinic-hours-and-closures (admin): the week's opening hours, then the closures. */
export function ClinicHoursPage() {
  const { data: hours, error, isValidating, mutate } = useClinicHours();
  return (
    <section className="dashboard-page" aria-labelledby="clinic-hours-title">
      <h1 id="clinic-hours-title">Clinic hours and closures</h1>
      {error && !hours && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The opening hours could not be loaded: {errorText(error)}
        </LoadError>
      )}
      {hours ? <HoursEditor hours={hours} /> : !error && <Spinner label="Loading opening hours" />}
      <ClosuresSection />
    </section>
  );
}
