import { useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { type BookingForm, useBookingForms } from '../api/booking-forms.ts';

/** An answer in words: Yes/No, a choice's label, or the text given. */
function answerText(form: BookingForm, linkId: string, value: boolean | string): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const item = form.questionnaire.item.find((i) => i.linkId === linkId);
  return item?.answerOption?.find((o) => o.valueCoding.code === value)?.valueCoding.display ?? value;
}

const STATUS = { missing: 'not filled yet', expired: 'to renew (over a year old)', filled: 'filled' } as const;

/** The front desk's view of a booking's forms and answers, loaded when opened (docs/product-booking.md#forms). */
export function FormAnswers({ bookingId }: { bookingId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="booking-record__answers" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Forms and answers</summary>
      {open && <Answers bookingId={bookingId} />}
    </details>
  );
}

function Answers({ bookingId }: { bookingId: string }) {
  const { data, error } = useBookingForms(bookingId, null);
  if (error) return <p role="alert">The forms could not be loaded: {errorText(error)}</p>;
  if (!data) return <Spinner label="Loading the answers" />;
  if (data.forms.length === 0) return <p>This visit needs no forms.</p>;
  return (
    <>
      {data.forms.map((form) => (
        <section key={form._id} aria-label={form.title}>
          <h3>
            {form.title}: {STATUS[form.status]}
          </h3>
          {form.answers && (
            <dl>
              {form.questionnaire.item
                .filter((item) => form.answers?.[item.linkId] !== undefined)
                .map((item) => (
                  <div key={item.linkId}>
                    <dt>{item.text}</dt>
                    <dd>{answerText(form, item.linkId, form.answers?.[item.linkId] ?? '')}</dd>
                  </div>
                ))}
            </dl>
          )}
        </section>
      ))}
    </>
  );
}
