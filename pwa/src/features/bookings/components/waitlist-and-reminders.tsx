import { type SubmitEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { errorText } from '../../../lib/error-text.ts';
import { type Formats, type Translate, useLanguage, useT } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { useReminderSetting, useSmsSetting } from '../api/reminders.ts';
import { leaveWaitlist, useMyWaitlist, type WaitlistEntry } from '../api/waitlist.ts';

/** The days an entry waits for: "Dec 13, 2026", or "Dec 13, 2026 to Dec 20, 2026". */
function datesOf(entry: WaitlistEntry, t: Translate, format: Formats): string {
  const shown = format.calendarDay;
  return entry.from === entry.to
    ? shown(entry.from)
    : t('waitlist.range', { from: shown(entry.from), to: shown(entry.to) });
}

/** docs/product-booking.md#waitlist-and-reminders: My Appointments' waitlist: the treatments and dates the patient waits for, an offer held for them, and Leave. */
export function MyWaitlist({ email }: { email: string }) {
  const { data: entries, error } = useMyWaitlist(email);
  const [leaving, setLeaving] = useState<string | null>(null);
  const { t, format } = useLanguage();

  async function handleLeave(entry: WaitlistEntry) {
    setLeaving(entry._id);
    try {
      await leaveWaitlist(entry);
      notify.success(t('waitlist.left'));
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setLeaving(null);
    }
  }

  return (
    <section className="bookings__waitlist" aria-labelledby="waitlist-title">
      <h2 id="waitlist-title">{t('waitlist.title')}</h2>
      {error && !entries ? (
        <p role="alert">{t('waitlist.loadFailed', { reason: errorText(error, t) })}</p>
      ) : !entries ? null : entries.length === 0 ? (
        <p className="muted">{t('waitlist.none')}</p>
      ) : (
        <ul className="waitlist-list">
          {entries.map((entry) => (
            <li key={entry._id} className="waitlist-list__item">
              <span>{t('waitlist.entry', { treatment: entry.treatment, dates: datesOf(entry, t, format) })}</span>
              {entry.offer && (
                <Link
                  href={`/offers/${encodeURIComponent(entry.offer._id)}`}
                  className="button button--small button--primary"
                >
                  {t('waitlist.held', { day: entry.offer.appointmentDate, slot: entry.offer.slot })}
                </Link>
              )}
              <button
                type="button"
                className="button button--small"
                disabled={leaving === entry._id}
                onClick={() => void handleLeave(entry)}
                aria-label={t('waitlist.leaveWhat', { treatment: entry.treatment, dates: datesOf(entry, t, format) })}
              >
                {t('waitlist.leave')}
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
  const t = useT();
  async function saveAndSay(save: () => Promise<string>) {
    setSaving(true);
    try {
      notify.success(await save());
    } catch (cause) {
      notify.error(errorText(cause, t));
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
  const t = useT();
  const handleChange = (remindersOn: boolean) =>
    saveAndSay(async () => {
      await save(remindersOn);
      return remindersOn ? t('reminders.on') : t('reminders.off');
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
      <label htmlFor={id}>{t('reminders.label')}</label>
    </p>
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
  const t = useT();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    try {
      const saved = await save(shownPhone.trim() === '' ? null : shownPhone.trim(), shownConsent);
      setPhone(null);
      setConsent(null);
      notify.success(saved.smsConsent ? t('texts.to', { phone: saved.phone ?? '' }) : t('texts.none'));
    } catch (cause) {
      setProblem(errorText(cause, t));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="bookings__sms" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('texts.title')}</h2>
      <div className="field">
        <label htmlFor={`${id}-phone`}>{t('texts.mobile')}</label>
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
        <label htmlFor={`${id}-consent`}>{t('texts.consent')}</label>
      </p>
      {data?.stopped && <p className="muted">{t('texts.stopped')}</p>}
      {problem && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button--small" disabled={!data || saving} aria-busy={saving}>
        {t('texts.save')}
      </button>
    </form>
  );
}
