import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';

/** A name's rules on the clinic setup screens: required, at most `max` characters. */
const nameRules = (max: number) => ({
  validate: (value: string) => value.trim() !== '' || 'name is required',
  maxLength: { value: max, message: `name must be at most ${max} characters` },
});

type AddNameFormProps = {
  /** The form's accessible name ("Add a chair"). */
  label: string;
  /** The button ("Add chair"). */
  submitLabel: string;
  maxLength: number;
  /** Adds it (the name trimmed); a refusal shows the server's message. */
  onAdd(name: string): Promise<unknown>;
};

/** The clinic setup screens' one-field form that adds a named thing (a chair, a specialty): "{name} added". */
export function AddNameForm({ label, submitLabel, maxLength, onAdd }: AddNameFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ defaultValues: { name: '' } });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await onAdd(name.trim());
      notify.success(`${name.trim()} added`);
      reset();
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
    }
  });

  return (
    <form
      className="schedule-form chair-form"
      onSubmit={onSubmit}
      noValidate
      aria-label={label}
      aria-busy={isSubmitting || undefined}
    >
      <FormField
        label="Name"
        autoComplete="off"
        registration={register('name', nameRules(maxLength))}
        error={errors.name?.message}
      />
      <button type="submit" className="button button--primary schedule-form__submit" disabled={isSubmitting}>
        {isSubmitting ? 'Adding…' : submitLabel}
      </button>
    </form>
  );
}

type RenameDialogProps = {
  /** The name it has now. */
  name: string;
  maxLength: number;
  /** Renames it; answers the success toast's text. A refusal shows the server's message and keeps the dialog. */
  onRename(name: string): Promise<string>;
  onClose(): void;
};

/** "Rename {name}": a dialog with the new name, "Save" and "Cancel". */
export function RenameDialog({ name, maxLength, onRename, onClose }: RenameDialogProps) {
  const titleId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ defaultValues: { name } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      notify.success(await onRename(values.name.trim()));
      onClose();
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
    }
  });

  return (
    <Modal labelledBy={titleId} onClose={() => !isSubmitting && onClose()}>
      <h2 id={titleId} className="modal__title">
        Rename {name}
      </h2>
      <form onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        <FormField
          label="New name"
          autoComplete="off"
          registration={register('name', nameRules(maxLength))}
          error={errors.name?.message}
        />
        <div className="modal__actions">
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
