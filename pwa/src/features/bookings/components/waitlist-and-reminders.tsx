import { format } from 'date-fns/format';
import { type SubmitEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { LANGUAGE_NAMES, type Language } from '../../../../../contract/languages.ts';
import { LanguageOptions } from '../../../components/language-options.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useMessageLanguage, useReminderSetting, useSmsSetting } from '../api/reminders.ts';
import { leaveWaitlist, useMyWaitlist, type WaitlistEntry } from '../api/waitlist.ts';

/** An ISO date as the app shows dates, e.g. "Dec 13, 2026". */
const shown = (iso: string) => format(new Date(`${iso}T12:00:00`), 'PP');
const datesOf = (entry: WaitlistEntry) =>
  entry.from === entry.to ? shown(entry.from) : `${shown(entry.from)} to ${shown(entry.to)}`;

/** docs/product-booking.md#waitlist-and-reminders: My Appointments' waitlist: the treatments and dates the patient waits for, an offer held for them, and Leave. */
export function MyWaitlist({ email }: { email: string }) {
  const { data: entries, error } = useMyWaitlist(email);
  const [leaving, setLeaving] = useState<string | null>(null);

  async function handleLeave(entry: WaitlistEntry) {
    setLeaving(entry._id);
    try {
      await leaveWaitlist(entry);
      notify.success('You left the waitlist');
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setLeaving(null);
    }
  }

  return (
    <section className="bookings__waitlist" aria-labelledby="waitlist-title">
      <h2 id="waitlist-title">My waitlist</h2>
      {error && !entries ? (
        <p role="alert">Sorry, your waitlist could not be loaded: {errorText(error)}</p>
      ) : !entries ? null : entries.length === 0 ? (
        <p className="muted">
          You are not waiting for any time. On a day with no free time, the appointment page offers "Join the waitlist".
        </p>
      ) : (
        <ul className="waitlist-list">
          {entries.map((entry) => (
            <li key={entry._id} className="waitlist-list__item">
              <span>
                {entry.treatment} on {datesOf(entry)}
              </span>
              {entry.offer && (
                <Link
                  href={`/offers/${encodeURIComponent(entry.offer._id)}`}
                  className="button button--small button--primary"
                >
                  A time is held for you: {entry.offer.appointmentDate}, {entry.offer.slot}
                </Link>
              )}
              <button
                type="button"
                className="button button--small"
                disabled={leaving === entry._id}
                onClick={() => void handleLeave(entry)}
                aria-label={`Leave the waitlist for ${entry.treatment} on ${datesOf(entry)}`}
              >
                Leave
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A setting saved as it changes: its control waits meanwhile, and a toast says what came of it. */
function useSaving() {
  const [saving, setSaving] = useState(false);
  async function saveAndSay(save: () => Promise<string>) {
    setSaving(true);
    try {
      notify.success(await save());
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setSaving(false);
    }
  }
  return [saving, saveAndSay] as const;
}

/** The patient's reminder setting, stored on the server and read again before each reminder goes out. */
export function ReminderToggle({ email }: { email: string }) {
  const { data, save } = useReminderSetting(email);
  const [saving, saveAndSay] = useSaving();
  const id = useId();
  const handleChange = (remindersOn: boolean) =>
    saveAndSay(async () => {
      await save(remindersOn);
      return remindersOn ? 'Reminders are on' : 'Reminders are off';
    });

  return (
    <p className="bookings__reminders">
      <input
        id={id}
        type="checkbox"
        checked={data?.remindersOn ?? true}
        disabled={!data || saving}
        onChange={(event) => void handleChange(event.currentTarget.checked)}
      />
      <label htmlFor={id}>Email me a reminder the day before each appointment</label>
    </p>
  );
}

/** The language of the patient's mails, texts and calendar files (docs/languages.md), stored on the account. */
export function MessageLanguage({ email }: { email: string }) {
  const { data, save } = useMessageLanguage(email);
  const [, saveAndSay] = useSaving();
  const id = useId();
  const handleChange = (language: Language) =>
    saveAndSay(async () => {
      await save(language);
      return `Your mails and texts will be in ${LANGUAGE_NAMES[language]}`;
    });

  // Shown once known, and never disabled: a greyed-out select reads below the contrast the app keeps
  // (WCAG's enhanced 7:1), and a second choice while the first is saving simply wins.
  if (!data) return null;
  return (
    <div className="field bookings__language">
      <label htmlFor={id}>Language of your mails and texts</label>
      <select
        id={id}
        value={data.language}
        onChange={(event) => void handleChange(event.currentTarget.value as Language)}
      >
        <LanguageOptions />
      </select>
    </div>
  );
}

/**
 * docs/product-booking.md#confirmations: texts as well as mail. The patient gives a mobile number and agrees
 * to texts; reminders then come by SMS too, answerable by replying C, R or X. A STOP reply is shown,
 * and saving with the box ticked starts texts again.
 */
export function SmsSettingForm({ email }: { email: string }) {
  const { data, save } = useSmsSetting(email);
  const id = useId();
  const [phone, setPhone] = useState<string | null>(null);
  const [consent, setConsent] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const shownPhone = phone ?? data?.phone ?? '';
  const shownConsent = consent ?? data?.smsConsent ?? false;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    try {
      const saved = await save(shownPhone.trim() === '' ? null : shownPhone.trim(), shownConsent);
      setPhone(null);
      setConsent(null);
      notify.success(saved.smsConsent ? `Texts go to ${saved.phone}` : 'No texts');
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="bookings__sms" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Texts</h2>
      <div className="field">
        <label htmlFor={`${id}-phone`}>Mobile number</label>
        <input
          id={`${id}-phone`}
          type="tel"
          autoComplete="tel"
          maxLength={40}
          value={shownPhone}
          placeholder="+1 555 010 2026"
          disabled={!data}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setPhone(event.target.value)}
        />
      </div>
      <p className="bookings__reminders">
        <input
          id={`${id}-consent`}
          type="checkbox"
          checked={shownConsent}
          disabled={!data}
          onChange={(event) => setConsent(event.currentTarget.checked)}
        />
        <label htmlFor={`${id}-consent`}>
          Text me reminders; I can reply C to confirm, R to be called, X to cancel
        </label>
      </p>
      {data?.stopped && (
        <p className="muted">You replied STOP, so no texts are sent. Save with the box ticked to start them again.</p>
      )}
      {problem && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button--small" disabled={!data || saving} aria-busy={saving}>
        Save texts
      </button>
    </form>
  );
}
