import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export type SelectOption = { value: string; label: string };

type SelectFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  options: readonly SelectOption[];
  /** The validation message shown below the select, linked to it for assistive technology. */
  error?: string | undefined;
  /** A first, disabled option asking for a choice (the spec's "Please select a Specialty"); give the field "" to start on it. */
  prompt?: string;
  /** A line under the label saying what the choice does. */
  hint?: string;
};

/** A labelled select for react-hook-form, the twin of FormField. */
export function SelectField({ label, registration, options, error, prompt, hint }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...registration}
      >
        {prompt !== undefined && (
          <option value="" disabled>
            {prompt}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
