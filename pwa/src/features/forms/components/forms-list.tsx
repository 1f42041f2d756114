import type { Answers, BookingForm, FormDelivery } from '../api/booking-forms.ts';
import { QuestionnaireForm } from './questionnaire-form.tsx';

const BADGE = {
  missing: { text: 'To fill', className: 'badge badge--warning' },
  expired: { text: 'To renew', className: 'badge badge--warning' },
  filled: { text: 'Filled', className: 'badge' },
} as const;

/** Each form with where it stands and its questions; a visit with none says so. */
export function FormsList({
  forms,
  onSave,
}: {
  forms: BookingForm[];
  onSave(form: BookingForm, answers: Answers): Promise<FormDelivery>;
}) {
  if (forms.length === 0) return <p>This visit needs no forms.</p>;
  return (
    <div className="forms-list">
      {forms.map((form) => (
        <section key={form._id} className="forms-list__form" aria-labelledby={`form-${form._id}`}>
          <h2 id={`form-${form._id}`}>
            {form.title} <span className={BADGE[form.status].className}>{BADGE[form.status].text}</span>
          </h2>
          <QuestionnaireForm form={form} onSave={(answers) => onSave(form, answers)} />
        </section>
      ))}
    </div>
  );
}
