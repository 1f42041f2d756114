import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

type FormFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  /** The validation message shown below the input, linked to it for assistive technology. */
  error?: string | undefined;
  type?: 'text' | 'email' | 'password' | 'date';
  autoComplete?: string;
  /** The on-screen keyboard a phone shows (say, 'decimal' for a price). */
  inputMode?: 'decimal' | 'numeric';
};

export function FormField({ label, registration, error, type = 'text', autoComplete, inputMode }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
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
