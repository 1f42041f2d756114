import { type SubmitEvent, useId, useState } from 'react';
import type { CancellationPolicy } from '../../../../../contract/policy.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useBookingRules } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSavePolicy } from '../api/cancellation-policy.ts';
import { useMessageSettings } from '../api/message-settings.ts';
import { MessageSettingsForm } from './message-settings-form.tsx';
import { Undelivered } from './undelivered.tsx';
import './clinic-settings.css';

/**
 * docs/product-admin.md#clinic-settings (admin): the clinic's rules for changing a booking online, and
 * how it speaks to patients (its name, address and phone, reminders, waitlist offers).
 */
export function ClinicSettingsPage() {
  const { data: policy, error } = useBookingRules();
  const { data: messages, error: messagesError } = useMessageSettings();
  if (error) throw error; // the layout's error screen
  if (messagesError) throw messagesError;
  return (
    <section className="dashboard-page settings" aria-labelledby="clinic-settings-title">
      <h1 id="clinic-settings-title">Clinic settings</h1>
      {policy && messages ? (
        <>
          <PolicyForm policy={policy} />
          <MessageSettingsForm settings={messages} />
          <Undelivered />
        </>
      ) : (
        <Spinner label="Loading the clinic settings" />
      )}
    </section>
  );
}

type Field = keyof CancellationPolicy;
const FIELDS: { name: Field; label: string; help: string; max: number }[] = [
  {
    name: 'freeCancellationHours',
    label: 'Free cancellation until (hours before the appointment)',
    help: 'Patients can cancel a paid appointment online, refunded in full, until this many hours before it starts. After that they are asked to call the clinic; you can still cancel it and choose whether to refund.',
    max: 720,
  },
  {
    name: 'rescheduleCutoffHours',
    label: 'Online rescheduling until (hours before the appointment)',
    help: 'Patients can move an appointment to another time online until this many hours before it starts. After that they are asked to call the clinic; you can still reschedule it from the Schedule.',
    max: 720,
  },
  {
    name: 'noShowFee',
    label: 'Missed-appointment fee (dollars, 0 for none)',
    help: 'Charged once to the card on file of a visit booked with one (a treatment paid "with a card on file") when you mark it a no-show. Patients accept it when they book; you can waive it.',
    max: 1000,
  },
  {
    name: 'lateCancelFee',
    label: 'Late-cancellation fee (dollars, 0 for none)',
    help: 'Charged once to the card on file when a patient cancels such a visit online after the free cancellation time. A new fee applies to visits booked after you save it.',
    max: 1000,
  },
];

/** A whole number, 0 or more (the server checks the upper limit), or null. */
function whole(value: string): number | null {
  const number = Number(value);
  return value.trim() === '' || !Number.isInteger(number) || number < 0 ? null : number;
}

function PolicyForm({ policy }: { policy: CancellationPolicy }) {
  const savePolicy = useSavePolicy();
  const [values, setValues] = useState<Record<Field, string>>({
    freeCancellationHours: String(policy.freeCancellationHours),
    rescheduleCutoffHours: String(policy.rescheduleCutoffHours),
    noShowFee: String(policy.noShowFee),
    lateCancelFee: String(policy.lateCancelFee),
  });
  const [invalid, setInvalid] = useState<Field[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const wrong = FIELDS.map((field) => field.name).filter((name) => whole(values[name]) === null);
    setInvalid(wrong);
    if (wrong.length > 0) {
      setProblem('Enter a whole number, 0 or more, in each field');
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await savePolicy({
        freeCancellationHours: whole(values.freeCancellationHours) ?? 0,
        rescheduleCutoffHours: whole(values.rescheduleCutoffHours) ?? 0,
        noShowFee: whole(values.noShowFee) ?? 0,
        lateCancelFee: whole(values.lateCancelFee) ?? 0,
      });
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
      {FIELDS.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
          <p id={`${id}-${field.name}-help`} className="settings__help">
            {field.help}
          </p>
          <input
            id={`${id}-${field.name}`}
            type="number"
            inputMode="numeric"
            min={0}
            max={field.max}
            step={1}
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
            aria-describedby={problem ? `${id}-${field.name}-help ${id}-error` : `${id}-${field.name}-help`}
            aria-invalid={invalid.includes(field.name) ? true : undefined}
          />
        </div>
      ))}
      {problem && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button--primary settings__save" disabled={saving} aria-busy={saving}>
        Save
      </button>
    </form>
  );
}
