import { type SubmitEvent, useId, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { usePolicy, useSavePolicy } from '../api/cancellation-policy.ts';
import './clinic-settings.css';

/** docs/product.md#clinic-settings (admin): the clinic's cancellation policy. */
export function ClinicSettingsPage() {
  const { data: policy, error } = usePolicy();
  if (error) throw error; // the layout's error screen
  return (
    <section className="dashboard-page" aria-labelledby="clinic-settings-title">
      <h1 id="clinic-settings-title">Clinic settings</h1>
      {policy ? <PolicyForm hours={policy.freeCancellationHours} /> : <Spinner label="Loading the clinic settings" />}
    </section>
  );
}

function PolicyForm({ hours }: { hours: number }) {
  const savePolicy = useSavePolicy();
  const [value, setValue] = useState(String(hours));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const freeCancellationHours = Number(value);
    if (value.trim() === '' || !Number.isInteger(freeCancellationHours) || freeCancellationHours < 0) {
      setProblem('Enter a whole number of hours, 0 or more');
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await savePolicy({ freeCancellationHours });
      notify.success('Cancellation policy saved');
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="settings__form" onSubmit={handleSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Cancellation policy</h2>
      <p id={`${id}-help`} className="settings__help">
        Patients can cancel a paid appointment online, refunded in full, until this many hours before it starts. After
        that they are asked to call the clinic; you can still cancel it and choose whether to refund.
      </p>
      <div className="field">
        <label htmlFor={`${id}-hours`}>Free cancellation until (hours before the appointment)</label>
        <input
          id={`${id}-hours`}
          type="number"
          inputMode="numeric"
          min={0}
          max={720}
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-describedby={problem ? `${id}-help ${id}-error` : `${id}-help`}
          aria-invalid={problem ? true : undefined}
        />
        {problem && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" className="button button--primary settings__save" disabled={saving} aria-busy={saving}>
        Save
      </button>
    </form>
  );
}
