import { type SubmitEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { QUESTION_TYPES, type QuestionType } from '../../../../../contract/form-kinds.ts';
import type { FormSummary, FormTemplate } from '../../../../../contract/forms.ts';
import type { Treatment } from '../../../../../contract/treatments.ts';
import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { apiFetcher } from '../../../lib/api.ts';
import { TREATMENTS_KEY } from '../../../lib/cache-keys.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import '../forms.css';
import { client } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

const FORMS_KEY = pathOf('GET /forms');

const TYPE_TEXT: Record<QuestionType, string> = {
  boolean: 'Yes or no',
  string: 'A line of text',
  text: 'Several lines (a list of medicines)',
  date: 'A date',
  choice: 'One of a list',
  signature: 'A typed signature',
};

/** A question being edited: a choice's options as lines of text. */
/**
 * A question being edited. `minAge`: asked only from that age (empty: of everyone); `dependsOn`: a
 * condition on an earlier answer, kept as it is.
 */
type Draft = {
  linkId: string;
  text: string;
  type: QuestionType;
  required: boolean;
  alert: string;
  options: string;
  minAge: string;
  dependsOn?: { question: string; answer: boolean | string };
};
const NEW_QUESTION: Draft = {
  linkId: '',
  text: '',
  type: 'boolean',
  required: false,
  alert: '',
  options: '',
  minAge: '',
};

/** A question's id from its words (kept for life once saved: answers are filed under it). */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'q';

function draftsOf(form: FormSummary | null): Draft[] {
  if (!form) return [{ ...NEW_QUESTION, required: true }];
  return form.items.map((q) => ({
    linkId: q.linkId,
    text: q.text,
    type: q.type,
    required: q.required,
    alert: q.alert ?? '',
    options: (q.options ?? []).map((o) => o.display).join('\n'),
    minAge: q.shownWhen && 'minAge' in q.shownWhen ? String(q.shownWhen.minAge) : '',
    ...(q.shownWhen && 'question' in q.shownWhen ? { dependsOn: q.shownWhen } : {}),
  }));
}

/** The template the API takes: new questions get an id from their words, unique in the form. */
function templateOf(
  title: string,
  renewMonths: number | null,
  treatments: 'all' | string[],
  drafts: Draft[],
): FormTemplate {
  const taken = new Set(drafts.map((d) => d.linkId).filter(Boolean));
  return {
    title,
    renewMonths,
    treatments,
    items: drafts.map((d) => {
      let linkId = d.linkId;
      if (!linkId) {
        const base = slug(d.text);
        linkId = base;
        for (let n = 2; taken.has(linkId); n++) linkId = `${base.slice(0, 36)}-${n}`;
        taken.add(linkId);
      }
      const options = d.options
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((display) => ({ code: slug(display), display }));
      return {
        linkId,
        text: d.text,
        type: d.type,
        required: d.required,
        ...(d.type === 'choice' ? { options } : {}),
        ...(d.type === 'boolean' && d.alert.trim() ? { alert: d.alert.trim() } : {}),
        ...(d.minAge.trim()
          ? { shownWhen: { minAge: Number(d.minAge) } }
          : d.dependsOn
            ? { shownWhen: d.dependsOn }
            : {}),
      };
    }),
  };
}

/**
 * docs/product-booking.md#forms (admin), /dashboard/form-templates: the clinic's forms, which treatments
 * need each, whether it is given per visit or renewed, and its questions. Saving writes a new
 * version; answers already given keep the version they were given on.
 */
export function FormTemplatesPage() {
  const { data: forms, error, isValidating, mutate } = useSWR<FormSummary[]>(FORMS_KEY, apiFetcher<FormSummary[]>);
  const [editing, setEditing] = useState<FormSummary | null | undefined>(undefined);
  return (
    <section className="dashboard-page" aria-labelledby="form-templates-title">
      <h1 id="form-templates-title">Forms</h1>
      <p className="section-lead">What patients fill before their visit. A change is saved as a new version.</p>
      {error && !forms ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The forms could not be loaded: {errorText(error)}
        </LoadError>
      ) : !forms ? (
        <Spinner label="Loading the forms" />
      ) : editing !== undefined ? (
        <FormEditor form={editing} onDone={() => setEditing(undefined)} />
      ) : (
        <>
          <ul className="form-templates">
            {forms.map((form) => (
              <li key={form._id} className="forms-list__form">
                <h2>
                  {form.title} <span className="badge">Version {form.version}</span>
                </h2>
                <p>
                  {form.renewMonths === null ? 'Filled for each visit' : `Renewed every ${form.renewMonths} months`};{' '}
                  {form.treatments === 'all' ? 'every treatment' : `needed by: ${form.treatments.join(', ')}`};{' '}
                  {form.items.length} questions
                </p>
                <button type="button" className="button button--small" onClick={() => setEditing(form)}>
                  Edit {form.title}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="button button--primary" onClick={() => setEditing(null)}>
            Add a form
          </button>
        </>
      )}
    </section>
  );
}

function FormEditor({ form, onDone }: { form: FormSummary | null; onDone(): void }) {
  const ids = useId();
  const { data: treatments } = useSWR<Treatment[]>(TREATMENTS_KEY, apiFetcher<Treatment[]>);
  const [title, setTitle] = useState(form?.title ?? '');
  const [renewMonths, setRenewMonths] = useState<number | null>(form ? form.renewMonths : 12);
  const [chosen, setChosen] = useState<'all' | string[]>(form?.treatments ?? 'all');
  const [drafts, setDrafts] = useState<Draft[]>(() => draftsOf(form));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (index: number, fields: Partial<Draft>) =>
    setDrafts((all) => all.map((d, i) => (i === index ? { ...d, ...fields } : d)));

  async function save(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const body = templateOf(title.trim(), renewMonths, chosen, drafts);
      const saved = form
        ? await client('PUT /forms/:id', { params: { id: form._id }, body })
        : await client('POST /forms', { body });
      notify.success(`${title.trim()} saved as version ${saved.version}`);
      onDone();
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="questionnaire form-editor" onSubmit={(event) => void save(event)} noValidate>
      <h2>{form ? `Edit ${form.title}` : 'Add a form'}</h2>
      <div className="field">
        <label htmlFor={`${ids}-title`}>Title</label>
        <input
          id={`${ids}-title`}
          type="text"
          maxLength={100}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-renew`}>Answers last</label>
        <select
          id={`${ids}-renew`}
          value={renewMonths === null ? 'visit' : String(renewMonths)}
          onChange={(e) => setRenewMonths(e.target.value === 'visit' ? null : Number(e.target.value))}
        >
          <option value="visit">For one visit (a consent)</option>
          <option value="6">6 months</option>
          <option value="12">A year</option>
          <option value="24">Two years</option>
        </select>
      </div>
      <fieldset className="checkbox-group">
        <legend>Needed by</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={chosen === 'all'}
            onChange={(e) => setChosen(e.currentTarget.checked ? 'all' : [])}
          />
          Every treatment
        </label>
        {chosen !== 'all' && (
          <div className="checkbox-group__options">
            {(treatments ?? []).map((t) => (
              <label key={t._id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(t._id)}
                  onChange={(e) =>
                    setChosen(e.currentTarget.checked ? [...chosen, t._id] : chosen.filter((id) => id !== t._id))
                  }
                />
                {t.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {drafts.map((draft, index) => (
        <fieldset key={draft.linkId || `new-${index}`} className="form-editor__question">
          <legend>Question {index + 1}</legend>
          <div className="field">
            <label htmlFor={`${ids}-${index}-text`}>Question {index + 1}: what it asks</label>
            <input
              id={`${ids}-${index}-text`}
              type="text"
              maxLength={300}
              value={draft.text}
              onChange={(e) => change(index, { text: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-${index}-type`}>Question {index + 1}: answered with</label>
            <select
              id={`${ids}-${index}-type`}
              value={draft.type}
              onChange={(e) => change(index, { type: e.target.value as QuestionType })}
            >
              {QUESTION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_TEXT[type]}
                </option>
              ))}
            </select>
          </div>
          {draft.type === 'choice' && (
            <div className="field">
              <label htmlFor={`${ids}-${index}-options`}>Question {index + 1}: options, one per line</label>
              <textarea
                id={`${ids}-${index}-options`}
                rows={3}
                value={draft.options}
                onChange={(e) => change(index, { options: e.target.value })}
              />
            </div>
          )}
          {draft.type === 'boolean' && (
            <div className="field">
              <label htmlFor={`${ids}-${index}-alert`}>Question {index + 1}: alert on the schedule when yes</label>
              <input
                id={`${ids}-${index}-alert`}
                type="text"
                maxLength={100}
                value={draft.alert}
                onChange={(e) => change(index, { alert: e.target.value })}
              />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${ids}-${index}-age`}>Question {index + 1}: asked from age (empty: of everyone)</label>
            <input
              id={`${ids}-${index}-age`}
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
              value={draft.minAge}
              onChange={(e) => change(index, { minAge: e.target.value })}
            />
          </div>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.required}
              onChange={(e) => change(index, { required: e.currentTarget.checked })}
            />
            Question {index + 1} must be answered
          </label>
          {drafts.length > 1 && (
            <button
              type="button"
              className="button button--small"
              onClick={() => setDrafts((all) => all.filter((_, i) => i !== index))}
            >
              Remove question {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" className="button button--small" onClick={() => setDrafts((all) => [...all, NEW_QUESTION])}>
        Add a question
      </button>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="modal__actions">
        <button type="button" className="button" onClick={onDone} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
          Save
        </button>
      </div>
    </form>
  );
}
