import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useHydrated } from '../lib/use-hydrated.ts';

export type SelectOption = { value: string; label: string };

type FieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  /** The validation message shown below the control, linked to it for assistive technology. */
  error?: string | undefined;
  /** What the field asks for, in plain words, always shown under the label. */
  hint?: string;
} & (
  | {
      /** A choice among these: the field is a select. */
      options: readonly SelectOption[];
      /** A first, disabled option asking for a choice (the spec's "Please select a Specialty"); give the field "" to start on it. */
      prompt?: string;
    }
  | {
      options?: never;
      type?: 'text' | 'email' | 'password' | 'date';
      autoComplete?: string;
      /** The on-screen keyboard a phone shows (say, 'decimal' for a price). */
      inputMode?: 'decimal' | 'numeric';
    }
);

/** A labelled input or select of a react-hook-form form, with its hint and its error linked to it. */
export function Field(props: FieldProps) {
  const { label, registration, error, hint } = props;
  const id = useId();
  // On a page that paints before its code has run (the sign-in pages): no typing the form would not see.
  const ready = useHydrated();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {props.options ? (
        <select id={id} {...described} {...registration}>
          {props.prompt !== undefined && (
            <option value="" disabled>
              {props.prompt}
            </option>
          )}
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          readOnly={!ready}
          {...described}
          {...registration}
        />
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
