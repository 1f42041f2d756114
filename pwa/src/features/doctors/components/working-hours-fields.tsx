import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '../../../components/field.tsx';
import { minutesOf, QUARTER_HOURS, WEEKDAYS } from '../../../lib/schedule-text.ts';

/** A doctor's working days (the API's weekday numbers, as the checkboxes' string values) and hours. */
export type WorkingHoursValues = { workingDays: string[]; start: string; end: string };

/** Every day, 09:00 to 17:00: the clinic's opening hours, and what the server assumes without them. */
export const DEFAULT_WORKING_HOURS: WorkingHoursValues = {
  workingDays: WEEKDAYS.map(({ day }) => String(day)),
  start: '09:00',
  end: '17:00',
};

/** The validation of the fields below (docs/product-admin.md#add-a-doctor), for react-hook-form's register. */
export const workingHoursRules = {
  workingDays: { validate: (days: string[]) => days.length > 0 || 'choose at least one working day' },
  end: {
    validate: (end: string, form: { start: string }) =>
      minutesOf(end) > minutesOf(form.start) || 'the end must be later than the start',
  },
};

/** The form's values as the API takes them: `{workingDays: [1, 2, …], hours: {start, end}}`. */
export const workingHoursOf = ({ workingDays, start, end }: WorkingHoursValues) => ({
  workingDays: workingDays.map(Number).sort((a, b) => a - b),
  hours: { start, end },
});

const TIME_OPTIONS = QUARTER_HOURS.map((time) => ({ value: time, label: time }));

type WorkingHoursFieldsProps = {
  registrations: { workingDays: UseFormRegisterReturn; start: UseFormRegisterReturn; end: UseFormRegisterReturn };
  errors: { workingDays?: string | undefined; end?: string | undefined };
};

/** "Working days" (a checkbox per weekday), "Starts at" and "Ends at": a doctor's week. */
export function WorkingHoursFields({ registrations, errors }: WorkingHoursFieldsProps) {
  const daysErrorId = useId();
  return (
    <>
      <fieldset className="checkbox-group" aria-describedby={errors.workingDays ? daysErrorId : undefined}>
        <legend>Working days</legend>
        <div className="checkbox-group__options">
          {WEEKDAYS.map(({ day, name, short }) => (
            <label key={day} className="checkbox">
              <input type="checkbox" value={String(day)} aria-label={name} {...registrations.workingDays} />
              <span aria-hidden="true">{short}</span>
            </label>
          ))}
        </div>
        {errors.workingDays && (
          <p id={daysErrorId} className="field__error">
            {errors.workingDays}
          </p>
        )}
      </fieldset>
      <div className="working-hours">
        <Field label="Starts at" options={TIME_OPTIONS} registration={registrations.start} />
        <Field label="Ends at" options={TIME_OPTIONS} registration={registrations.end} error={errors.end} />
      </div>
    </>
  );
}
