import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useHydrated } from '../lib/use-hydrated.ts';

type FormFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  /** The validation message shown below the input, linked to it for assistive technology. */
  error?: string | undefined;
  type?: 'text' | 'email' | 'password' | 'date';
  autoComplete?: string;
  /** The on-screen keyboard a phone shows (say, 'decimal' for a price). */
  inputMode?: 'decimal' | 'numeric';
  /** What the field asks for, in plain words, always shown under the label. */
  hint?: string;
};

export function FormField({
  label,
  registration,
  error,
  type = 'text',
  autoComplete,
  inputMode,
  hint,
}: FormFieldProps) {
  const id = useId();
  // On a page that paints before its code has run (the sign-in pages): no typing the form would not see.
  const ready = useHydrated();
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
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        readOnly={!ready}
        {...registration}
      />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
