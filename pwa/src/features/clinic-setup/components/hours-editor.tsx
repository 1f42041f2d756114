import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../../components/field.tsx';
import { KeptBookingsNotice, StrandedConflictDialog } from '../../../components/stranded-bookings.tsx';
import { useScheduleChange } from '../../../components/use-schedule-change.ts';
import { minutesOf, QUARTER_HOURS, WEEKDAYS } from '../../../lib/schedule-text.ts';
import { type OpeningHours, saveClinicHours } from '../api/clinic-hours.ts';

type DayValues = { open: boolean; opens: string; closes: string };
type HoursFormValues = { days: DayValues[] };

const TIME_OPTIONS = QUARTER_HOURS.map((time) => ({ value: time, label: time }));

/** The form's days, in WEEKDAYS order (Monday first); a weekday the clinic does not open starts at 09:00–17:00, unticked. */
function formDays(hours: readonly OpeningHours[]): DayValues[] {
  return WEEKDAYS.map(({ day }) => {
    const open = hours.find((h) => h.weekday === day);
    return open
      ? { open: true, opens: open.open, closes: open.close }
      : { open: false, opens: '09:00', closes: '17:00' };
  });
}

/**
 * docs/product-admin.md#clinic-hours-and-closures: a row per weekday, open (from, to) or closed. Hours that
 * strand upcoming bookings are refused with the list of them; "Save anyway" keeps them.
 */
export function HoursEditor({ hours }: { hours: readonly OpeningHours[] }) {
  const headingId = useId();
  const change = useScheduleChange<OpeningHours[]>({
    run: (week, resolution) => saveClinicHours(week, resolution),
    successText: () => 'Opening hours saved',
  });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<HoursFormValues>({ defaultValues: { days: formDays(hours) } });
  const days = watch('days');

  const onSubmit = handleSubmit(async ({ days: values }) => {
    const week = WEEKDAYS.flatMap(({ day }, i) => {
      const value = values[i];
      return value?.open ? [{ weekday: day, open: value.opens, close: value.closes }] : [];
    });
    await change.submit(week);
  });

  return (
    <section className="schedule-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Opening hours</h2>
      <p className="schedule-page__intro">
        Patients can book only while the clinic is open. A day left unticked is closed.
      </p>
      <KeptBookingsNotice change={change} />
      <form className="hours-form" onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        {WEEKDAYS.map(({ name }, i) => {
          const closesError = errors.days?.[i]?.closes?.message;
          return (
            <fieldset key={name} className="hours-row">
              <legend>{name}</legend>
              <label className="checkbox">
                <input type="checkbox" {...register(`days.${i}.open`)} />
                Open
              </label>
              {days[i]?.open ? (
                <>
                  <Field label="Opens at" options={TIME_OPTIONS} registration={register(`days.${i}.opens`)} />
                  <Field
                    label="Closes at"
                    options={TIME_OPTIONS}
                    registration={register(`days.${i}.closes`, {
                      validate: (closes, form) => {
                        const day = form.days[i];
                        return (
                          !day?.open || minutesOf(closes) > minutesOf(day.opens) || 'closing must be later than opening'
                        );
                      },
                    })}
                    error={closesError}
                  />
                </>
              ) : (
                <p className="hours-row__closed">Closed</p>
              )}
            </fieldset>
          );
        })}
        <button type="submit" className="button button--primary hours-form__submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save hours'}
        </button>
      </form>
      <StrandedConflictDialog change={change} confirmLabel="Save anyway" />
    </section>
  );
}
