import { type SubmitEvent, useId, useState } from 'react';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { type MessageSettings, useSaveMessageSettings } from '../api/message-settings.ts';

/** A whole number of minutes from 5 to 1440, or null. */
function holdMinutes(value: string): number | null {
  const minutes = Number(value);
  return value.trim() === '' || !Number.isInteger(minutes) || minutes < 5 || minutes > 1440 ? null : minutes;
}

/** Hours before a hold ends for the pay-soon mail: a whole number from 0 (none) to 48, or null. */
function paySoonHours(value: string): number | null {
  const hours = Number(value);
  return value.trim() === '' || !Number.isInteger(hours) || hours < 0 || hours > 48 ? null : hours;
}

/** "-14, 0, 30" as days (1 to 5 distinct whole numbers from -90 to 180), or null. */
function recallDays(value: string): number[] | null {
  const days = value.split(',').map((part) => Number(part.trim()));
  const ok =
    value.trim() !== '' &&
    days.length <= 5 &&
    new Set(days).size === days.length &&
    days.every((d) => Number.isInteger(d) && d >= -90 && d <= 180);
  return ok ? [...days].sort((a, b) => a - b) : null;
}

/**
 * docs/product-admin.md#clinic-settings: how the clinic signs its mails (name, address, phone, also on
 * every page), whether a second reminder goes out two hours before, and how long a waitlist offer
 * holds a freed time.
 */
export function MessageSettingsForm({ settings }: { settings: MessageSettings }) {
  const save = useSaveMessageSettings();
  const id = useId();
  const [name, setName] = useState(settings.clinicName);
  const [address, setAddress] = useState(settings.clinicAddress);
  const [phone, setPhone] = useState(settings.clinicPhone);
  const [secondReminder, setSecondReminder] = useState(settings.secondReminder);
  const [feedNames, setFeedNames] = useState(settings.doctorFeedNames);
  const [hold, setHold] = useState(String(settings.offerHoldMinutes));
  const [recall, setRecall] = useState(settings.recallSteps.join(', '));
  const [paySoon, setPaySoon] = useState(String(settings.paySoonHours));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const minutes = holdMinutes(hold);
    if (!name.trim() || !address.trim() || !phone.trim()) {
      setProblem('Enter the clinic’s name, address and phone');
      return;
    }
    if (minutes === null) {
      setProblem('Enter how long an offer is held: 5 to 1440 minutes');
      return;
    }
    const paySoonLead = paySoonHours(paySoon);
    if (paySoonLead === null) {
      setProblem('Enter when the pay-soon mail goes: 0 to 48 hours before the payment deadline');
      return;
    }
    const recallSteps = recallDays(recall);
    if (recallSteps === null) {
      setProblem('Enter when recall messages go: 1 to 5 different days from -90 to 180, like -14, 0, 30');
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await save({
        clinicName: name.trim(),
        clinicAddress: address.trim(),
        clinicPhone: phone.trim(),
        secondReminder,
        doctorFeedNames: feedNames,
        offerHoldMinutes: minutes,
        paySoonHours: paySoonLead,
        recallSteps,
      });
      notify.success('Message settings saved');
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setSaving(false);
    }
  }

  const describedBy = (help: string) => (problem ? `${help} ${id}-error` : help);
  return (
    <form className="settings__form" onSubmit={handleSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Messages</h2>
      <p className="settings__help">
        The clinic’s name, address and phone sign every mail and appear on every page; patients call the phone number
        when a mail asks them to.
      </p>
      <div className="field">
        <label htmlFor={`${id}-name`}>Clinic name</label>
        <input
          id={`${id}-name`}
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-address`}>Address</label>
        <input
          id={`${id}-address`}
          maxLength={200}
          autoComplete="street-address"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-phone`}>Phone</label>
        <input
          id={`${id}-phone`}
          type="tel"
          maxLength={40}
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
      </div>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={secondReminder}
            onChange={(event) => setSecondReminder(event.target.checked)}
            aria-describedby={`${id}-second-help`}
          />
          Send a second reminder 2 hours before
        </label>
        <p id={`${id}-second-help`} className="settings__help">
          Every patient who has not turned reminders off gets one the day before; this adds one on the day.
        </p>
      </div>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={feedNames}
            onChange={(event) => setFeedNames(event.target.checked)}
            aria-describedby={`${id}-feed-help`}
          />
          Doctors’ calendar feeds show the treatment and the patient’s name
        </label>
        <p id={`${id}-feed-help`} className="settings__help">
          Off, a doctor’s calendar shows only “Appointment at” the clinic, which is safer on a shared or synced
          calendar.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-hold`}>A waitlist offer holds the time for (minutes)</label>
        <p id={`${id}-hold-help`} className="settings__help">
          When a time frees up, the first patient waiting is offered it and has this long to accept, at any hour, before
          it goes to the next one. 5 to 1440 minutes (a day).
        </p>
        <input
          id={`${id}-hold`}
          type="number"
          inputMode="numeric"
          min={5}
          max={1440}
          step={1}
          value={hold}
          onChange={(event) => setHold(event.target.value)}
          aria-describedby={describedBy(`${id}-hold-help`)}
          aria-invalid={holdMinutes(hold) === null ? true : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-pay-soon`}>Remind to pay before the deadline (hours)</label>
        <p id={`${id}-pay-soon-help`} className="settings__help">
          A patient who has not paid an online booking gets a “Pay soon” mail with a Pay link this many hours before the
          time would be released. 0 sends none; up to 48.
        </p>
        <input
          id={`${id}-pay-soon`}
          type="number"
          inputMode="numeric"
          min={0}
          max={48}
          step={1}
          value={paySoon}
          onChange={(event) => setPaySoon(event.target.value)}
          aria-describedby={describedBy(`${id}-pay-soon-help`)}
          aria-invalid={paySoonHours(paySoon) === null ? true : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-recall`}>Recall messages go (days from the due date)</label>
        <p id={`${id}-recall-help`} className="settings__help">
          A patient due for a cleaning or a check-up gets a message on each of these days, until they book: -14 is two
          weeks before, 0 the due date, 30 a month after. Up to 5, separated by commas.
        </p>
        <input
          id={`${id}-recall`}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={recall}
          onChange={(event) => setRecall(event.target.value)}
          aria-describedby={describedBy(`${id}-recall-help`)}
          aria-invalid={recallDays(recall) === null ? true : undefined}
        />
      </div>
      {problem && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button--primary settings__save" disabled={saving} aria-busy={saving}>
        Save messages
      </button>
    </form>
  );
}
