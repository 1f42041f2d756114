import { type SubmitEvent, useId, useState } from 'react';
import { EmailText } from '../../../components/email-text.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { CLINIC_TIME_ZONE } from '../../../lib/clinic-time-zone.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import {
  addRecall,
  changeRecall,
  importRecalls,
  type Recall,
  type RecallStatus,
  type RecallsImported,
  usePatientsToRecall,
  useRecalls,
  useRecallTreatments,
} from '../api/recalls.ts';
import './recalls.css';

const VIEWS: { value: RecallStatus | 'open'; label: string }[] = [
  { value: 'open', label: 'To book' },
  { value: 'booked', label: 'Booked' },
  { value: 'closed', label: 'Closed' },
];

const STATUS_TEXT: Record<RecallStatus, string> = {
  due: 'Not contacted yet',
  contacted: 'Contacted',
  booked: 'Booked',
  closed: 'Closed',
};

const todayInClinic = () => new Intl.DateTimeFormat('en-CA', { timeZone: CLINIC_TIME_ZONE }).format(new Date());

const dateText = (isoDate: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

/** "overdue by 12 days", "due today", "due in 5 days". */
function dueText(isoDate: string, today: string): string {
  const days = Math.round((Date.parse(`${isoDate}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (days === 0) return 'due today';
  return days < 0 ? `overdue by ${-days} day${days === -1 ? '' : 's'}` : `due in ${days} day${days === 1 ? '' : 's'}`;
}

function RecallCard({ recall, today }: { recall: Recall; today: string }) {
  const [busy, setBusy] = useState(false);
  const open = recall.status === 'due' || recall.status === 'contacted';

  async function act(body: { status?: 'closed'; doNotContact?: boolean }, done: string) {
    setBusy(true);
    try {
      await changeRecall(recall._id, body);
      notify.success(done);
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  const overdue = open && recall.dueDate < today;
  return (
    <article className="recall" data-overdue={overdue || undefined} aria-labelledby={`recall-${recall._id}`}>
      <h2 id={`recall-${recall._id}`} className="recall__title">
        {recall.patientName}: {recall.treatment}
      </h2>
      <p className="recall__due">
        Due {dateText(recall.dueDate)}
        {open && `, ${dueText(recall.dueDate, today)}`}
      </p>
      <dl className="recall__facts">
        <div>
          <dt>Status</dt>
          <dd>{STATUS_TEXT[recall.status]}</dd>
        </div>
        <div>
          <dt>Messages</dt>
          <dd>
            {recall.doNotContact
              ? 'None: the patient is not to be contacted'
              : recall.attempts === 0
                ? 'None yet'
                : `${recall.attempts} sent, the last on ${dateText((recall.lastContactAt ?? '').slice(0, 10))}`}
          </dd>
        </div>
        <div>
          <dt>Contact</dt>
          <dd className="recall__contact">
            {recall.phone}
            {recall.phone && recall.email && ' · '}
            {recall.email && <EmailText email={recall.email} />}
            {!recall.phone && !recall.email && 'No contact on file'}
          </dd>
        </div>
      </dl>
      {open && (
        <div className="recall__actions">
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() =>
              void act(
                { doNotContact: !recall.doNotContact },
                recall.doNotContact
                  ? `Messages to ${recall.patientName} allowed`
                  : `No more messages to ${recall.patientName}`,
              )
            }
          >
            {recall.doNotContact ? 'Allow messages' : 'Stop messages'}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void act({ status: 'closed' }, `Recall of ${recall.patientName} closed`)}
          >
            Close
          </button>
        </div>
      )}
    </article>
  );
}

/** One recall by hand: the patient (found by name or email), the treatment and the due date. */
/** A form's submit: not twice at once, and a refusal as a toast in plain words. */
function useSubmit(run: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await run();
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setBusy(false);
    }
  }
  return { busy, submit };
}

function AddRecallForm() {
  const id = useId();
  const [q, setQ] = useState('');
  const [patientId, setPatientId] = useState('');
  const [treatmentId, setTreatmentId] = useState('');
  const [dueDate, setDueDate] = useState('');
  const { data: matches = [] } = usePatientsToRecall(q);
  const { data: treatments = [] } = useRecallTreatments();
  const patient = matches.find((m) => m._id === patientId);

  const { busy, submit } = useSubmit(async () => {
    if (!patientId || !treatmentId || !dueDate) return;
    await addRecall({ patientId, treatmentId, dueDate });
    notify.success(`Recall added for ${patient?.name ?? 'the patient'}`);
    setQ('');
    setPatientId('');
    setDueDate('');
  });

  return (
    <form className="recall-import" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a recall</h2>
      <div className="field">
        <label htmlFor={`${id}-q`}>Find the patient by name or email</label>
        <input id={`${id}-q`} type="search" value={q} onChange={(event) => setQ(event.target.value)} />
      </div>
      {matches.length > 0 && (
        <fieldset className="recall-add__patients">
          <legend>Patient</legend>
          {matches.map((m) => (
            <label className="checkbox" key={m._id}>
              <input
                type="radio"
                name={`${id}-patient`}
                checked={patientId === m._id}
                onChange={() => setPatientId(m._id)}
              />
              {m.name} <span className="muted">{m.email}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="field">
        <label htmlFor={`${id}-treatment`}>Treatment</label>
        <select id={`${id}-treatment`} value={treatmentId} onChange={(event) => setTreatmentId(event.target.value)}>
          <option value="">Choose a treatment</option>
          {treatments.map((t) => (
            <option key={t._id} value={t._id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-due`}>Due date</label>
        <input id={`${id}-due`} type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
      </div>
      <button
        type="submit"
        className="button button--primary"
        disabled={busy || !patientId || !treatmentId || !dueDate}
        aria-busy={busy}
      >
        Add recall
      </button>
    </form>
  );
}

function ImportForm() {
  const id = useId();
  const [csv, setCsv] = useState('');
  const [result, setResult] = useState<RecallsImported | null>(null);

  const { busy, submit } = useSubmit(async () => {
    const answer = await importRecalls(csv);
    setResult(answer);
    notify.success(`${answer.added} recall${answer.added === 1 ? '' : 's'} added`);
    if (answer.skipped.length === 0) setCsv('');
  });

  return (
    <form className="recall-import" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add recalls from another system</h2>
      <div className="field">
        <label htmlFor={`${id}-csv`}>CSV, one recall a line</label>
        <p id={`${id}-hint`} className="field__hint">
          The first line is the header email,treatment,dueDate; for example patient@clinic.test,Teeth
          Cleaning,2027-05-31.
        </p>
        <textarea
          id={`${id}-csv`}
          rows={5}
          value={csv}
          onChange={(event) => setCsv(event.target.value)}
          aria-describedby={`${id}-hint`}
          spellCheck={false}
        />
      </div>
      <button type="submit" className="button button--primary" disabled={busy || csv.trim() === ''} aria-busy={busy}>
        Add recalls
      </button>
      {result && result.skipped.length > 0 && (
        <div role="status">
          <p>Lines not added:</p>
          <ul>
            {result.skipped.map((s) => (
              <li key={s.line}>
                Line {s.line}: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}

/**
 * docs/product-booking.md#recall (/dashboard/recalls, admin): the patients due for a treatment again, overdue
 * first; how many come back in time (compliance); stop or close one; add them from another system.
 */
export function RecallsPage() {
  const [view, setView] = useState<RecallStatus | 'open'>('open');
  const { data, error } = useRecalls(view);
  if (error) throw error;
  const today = todayInClinic();
  const { compliance } = data ?? {};

  return (
    <section className="dashboard-page" aria-labelledby="recalls-title">
      <h1 id="recalls-title">Recall</h1>
      <p className="recalls__intro">
        Patients due for a cleaning or a check-up again. Each gets a message 14 days before, on the day and 30 days
        after, with three free times to book in one tap; booking stops the messages.
      </p>
      {compliance && (
        <p className="recalls__compliance" role="status">
          {compliance.percent === null
            ? 'Recall compliance: no recall has come due yet.'
            : `Recall compliance: ${compliance.percent}% (${compliance.booked} of ${compliance.of} booked within 30 days of their due date).`}
        </p>
      )}
      <fieldset className="recalls__views">
        <legend className="visually-hidden">Show</legend>
        {VIEWS.map((v) => (
          <button
            key={v.value}
            type="button"
            className="button button--small"
            aria-pressed={view === v.value}
            onClick={() => setView(v.value)}
          >
            {v.label}
          </button>
        ))}
      </fieldset>
      {!data ? (
        <Spinner label="Loading recalls" />
      ) : data.recalls.length === 0 ? (
        <p>No recalls here.</p>
      ) : (
        <ul className="recalls" aria-label="Recalls">
          {data.recalls.map((recall) => (
            <li key={recall._id}>
              <RecallCard recall={recall} today={today} />
            </li>
          ))}
        </ul>
      )}
      <AddRecallForm />
      <ImportForm />
    </section>
  );
}
