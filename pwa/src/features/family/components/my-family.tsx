import { type SubmitEvent, useId, useState } from 'react';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { RELATIONSHIPS, type Relationship, useDependants } from '../api/dependants.ts';
import '../family.css';
import { useLanguage, useT } from '../../../lib/i18n.tsx';

/** Whether someone born on `birthDate` is 18 or more today. */
const isAdult = (birthDate: string, now = new Date()) => {
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  return Date.UTC(year + 18, month - 1, day) <= now.getTime();
};

/** docs/product-booking.md#family: an adult in the family is invited to claim their own record, at their own address. */
function InviteForm({
  personId,
  name,
  onInvite,
}: {
  personId: string;
  name: string;
  onInvite(id: string, email: string): Promise<{ message: string }>;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const t = useT();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      notify.success((await onInvite(personId, email.trim())).message);
      setEmail('');
    } catch (cause) {
      setProblem(errorText(cause, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="family__invite">
      <summary>{t('family.ownAccount')}</summary>
      <form onSubmit={(event) => void submit(event)} aria-label={t('family.invite', { name })}>
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('family.email', { name })}</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        {problem && (
          <p className="field__error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="button button--small" disabled={busy || email.trim() === ''} aria-busy={busy}>
          {t('family.inviteButton')}
        </button>
      </form>
    </details>
  );
}

/**
 * docs/product-booking.md#family: the people the patient books for (a child, a partner, a parent), each a
 * patient of the clinic without a login; added with a name, a date of birth and who they are.
 */
export function MyFamily({ email }: { email: string }) {
  const { data: family, add, remove, invite } = useDependants(email);
  const id = useId();
  const [name, setName] = useState('');
  const [birthDate, setBirthDate] = useState('');
  const [relationship, setRelationship] = useState<Relationship>('child');
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { t, format } = useLanguage();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim() || !birthDate) {
      setProblem(t('family.needed'));
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      await add({ name: name.trim(), birthDate, relationship });
      notify.success(t('family.added', { name: name.trim() }));
      setName('');
      setBirthDate('');
    } catch (cause) {
      setProblem(errorText(cause, t));
    } finally {
      setSaving(false);
    }
  }

  async function removePerson(personId: string, personName: string) {
    try {
      await remove(personId);
      notify.success(t('family.removed', { name: personName }));
    } catch (cause) {
      notify.error(errorText(cause, t));
    }
  }

  return (
    <section className="family" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('family.title')}</h2>
      <p className="muted">{t('family.lead')}</p>
      {family && family.length > 0 && (
        <ul className="family__list">
          {family.map((person) => (
            <li key={person._id}>
              <span>
                <strong>{person.name}</strong> ·{' '}
                {t('family.person', {
                  relationship: person.relationship,
                  born: format.calendarDay(person.birthDate),
                })}
              </span>
              <button
                type="button"
                className="button button--small"
                aria-label={t('family.removeWho', { name: person.name })}
                onClick={() => void removePerson(person._id, person.name)}
              >
                {t('family.remove')}
              </button>
              {isAdult(person.birthDate) && <InviteForm personId={person._id} name={person.name} onInvite={invite} />}
            </li>
          ))}
        </ul>
      )}
      <form className="family__form" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-add`} noValidate>
        <h3 id={`${id}-add`}>{t('family.add')}</h3>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('family.name')}</label>
          <input
            id={`${id}-name`}
            type="text"
            autoComplete="off"
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-born`}>{t('family.born')}</label>
          <input
            id={`${id}-born`}
            type="date"
            value={birthDate}
            onChange={(event) => setBirthDate(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-who`}>{t('family.who')}</label>
          <select
            id={`${id}-who`}
            value={relationship}
            onChange={(event) => setRelationship(event.target.value as Relationship)}
          >
            {RELATIONSHIPS.map((value) => (
              <option key={value} value={value}>
                {t('family.relationship', { relationship: value })}
              </option>
            ))}
          </select>
        </div>
        {problem && (
          <p className="field__error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="button button--small" disabled={saving} aria-busy={saving}>
          {t('family.addSubmit')}
        </button>
      </form>
    </section>
  );
}
