import { type SubmitEvent, useId, useRef, useState } from 'react';
import { SIGNATURE_EXTENSION } from '../../../../../contract/form-kinds.ts';
import { askedItems } from '../../../../../contract/questionnaire.ts';
import { errorText } from '../../../lib/error-text.ts';
import type { Answers, BookingForm, FormDelivery } from '../api/booking-forms.ts';

type Item = BookingForm['questionnaire']['item'][number];

const isSignature = (item: Item) => item.extension?.some((e) => e.url === SIGNATURE_EXTENSION && e.valueBoolean);

export const QUEUED_TEXT = 'Saved on this phone, will be sent when you are back online.';
const SENT_TEXT = 'Saved: the clinic has your answers.';

const SUBMIT = { missing: 'Save', expired: 'Confirm these answers', filled: 'Save changes' } as const;

/**
 * One form (a FHIR Questionnaire) as a page form: a yes/no or a choice as radio buttons in a
 * fieldset, a line, lines, a date, a typed signature; the answers given before are filled in (a
 * returning patient confirms or changes them). Only the questions asked of this person show, by
 * their age and their earlier answers (FHIR enableWhen). A required question left out is marked
 * where it is, takes the focus and is announced. Saved answers go to the clinic, or wait on the
 * phone when it is offline.
 */
export function QuestionnaireForm({
  form,
  onSave,
}: {
  form: BookingForm;
  onSave(answers: Answers): Promise<FormDelivery>;
}) {
  const ids = useId();
  const [answers, setAnswers] = useState<Answers>(() => ({ ...(form.answers ?? {}) }));
  const [problem, setProblem] = useState<string | null>(null);
  const [unanswered, setUnanswered] = useState<string | null>(null);
  const asked = askedItems(form.questionnaire, answers, { age: form.patientAge ?? null });
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = (item: Item) => `${ids}-${item.linkId}`;
  const set = (linkId: string, value: boolean | string) => {
    setAnswers((current) => ({ ...current, [linkId]: value }));
    setOutcome(null);
    if (linkId === unanswered) setUnanswered(null);
  };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = asked.find(
      (item) => item.required && (answers[item.linkId] === undefined || answers[item.linkId] === ''),
    );
    if (missing) {
      setProblem(null);
      setUnanswered(missing.linkId);
      formRef.current?.querySelector<HTMLElement>(`[data-link-id="${missing.linkId}"]`)?.focus();
      return;
    }
    setProblem(null);
    setUnanswered(null);
    setBusy(true);
    try {
      // Only what was asked: an answer to a question this person is not asked is not sent.
      const sent = Object.fromEntries(
        asked.flatMap((item) => (item.linkId in answers ? [[item.linkId, answers[item.linkId]]] : [])),
      );
      const saved = await onSave(sent as Answers);
      setOutcome(saved.delivery === 'queued' ? QUEUED_TEXT : SENT_TEXT);
    } catch (cause) {
      setProblem(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  /** Under a required question left out: what to do, announced as it shows. */
  const missingNote = (item: Item) =>
    unanswered === item.linkId ? (
      <p id={`${fieldId(item)}-missing`} className="form-error questionnaire__missing" role="alert">
        Please answer “{item.text}”
      </p>
    ) : null;

  function field(item: Item) {
    const value = answers[item.linkId];
    const invalid = unanswered === item.linkId;
    const common = {
      'data-link-id': item.linkId,
      'aria-required': item.required || undefined,
      'aria-invalid': invalid || undefined,
      'aria-describedby': invalid ? `${fieldId(item)}-missing` : undefined,
    };
    if (item.type === 'boolean' || item.type === 'choice') {
      const options =
        item.type === 'boolean'
          ? [
              { code: true, display: 'Yes' },
              { code: false, display: 'No' },
            ]
          : (item.answerOption ?? []).map((o) => ({ code: o.valueCoding.code, display: o.valueCoding.display }));
      return (
        <fieldset
          className={invalid ? 'questionnaire__choice questionnaire__choice--missing' : 'questionnaire__choice'}
          key={item.linkId}
          aria-describedby={invalid ? `${fieldId(item)}-missing` : undefined}
        >
          <legend>
            {item.text}
            {item.required && <span className="questionnaire__required"> (required)</span>}
          </legend>
          {options.map((option, index) => (
            <label className="checkbox" key={String(option.code)}>
              <input
                type="radio"
                name={fieldId(item)}
                checked={value === option.code}
                onChange={() => set(item.linkId, option.code)}
                {...(index === 0 ? common : {})}
              />
              {option.display}
            </label>
          ))}
          {missingNote(item)}
        </fieldset>
      );
    }
    const label = (
      <label htmlFor={fieldId(item)}>
        {item.text}
        {item.required && <span className="questionnaire__required"> (required)</span>}
      </label>
    );
    const text = typeof value === 'string' ? value : '';
    if (item.type === 'text') {
      return (
        <div className="field" key={item.linkId}>
          {label}
          <textarea
            id={fieldId(item)}
            rows={3}
            maxLength={2000}
            value={text}
            onChange={(e) => set(item.linkId, e.target.value)}
            {...common}
          />
          {missingNote(item)}
        </div>
      );
    }
    const signature = isSignature(item);
    return (
      <div className="field" key={item.linkId}>
        {label}
        <input
          id={fieldId(item)}
          type={item.type === 'date' ? 'date' : 'text'}
          maxLength={item.type === 'date' ? undefined : 2000}
          autoComplete={signature ? 'name' : 'off'}
          value={text}
          onChange={(e) => set(item.linkId, e.target.value)}
          {...common}
          aria-describedby={
            [signature && `${fieldId(item)}-hint`, invalid && `${fieldId(item)}-missing`].filter(Boolean).join(' ') ||
            undefined
          }
        />
        {signature && (
          <p id={`${fieldId(item)}-hint`} className="field__hint">
            Typing your name signs the form, with the time you save it.
          </p>
        )}
        {missingNote(item)}
      </div>
    );
  }

  return (
    <form ref={formRef} className="questionnaire" onSubmit={(event) => void submit(event)} noValidate>
      {form.status === 'expired' && (
        <p className="callout">Your answers are over a year old: please check them, change what is new, and confirm.</p>
      )}
      {asked.map(field)}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div role="status" className="questionnaire__outcome">
        {outcome}
      </div>
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {SUBMIT[form.status]}
      </button>
    </form>
  );
}
