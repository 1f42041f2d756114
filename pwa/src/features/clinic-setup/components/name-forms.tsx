import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { Field } from '../../../components/field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { contractResolver } from '../../../lib/contract-form.ts';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';

/** The contract's schema of the body that names a thing (NewChair, NewSpecialty): the name trimmed, required, of a length. */
export type NameSchema = v.GenericSchema<{ name: string }, { name: string }>;

function useNameForm(schema: NameSchema, name: string) {
  const resolver = useMemo(() => contractResolver<{ name: string }, NameSchema>(schema), [schema]);
  return useForm({ resolver, defaultValues: { name } });
}

type AddNameFormProps = {
  /** The form's accessible name ("Add a chair"). */
  label: string;
  /** The button ("Add chair"). */
  submitLabel: string;
  schema: NameSchema;
  /** Adds it (the name trimmed); a refusal shows the server's message. */
  onAdd(name: string): Promise<unknown>;
};

/** The clinic setup screens' one-field form that adds a named thing (a chair, a specialty): "{name} added". */
export function AddNameForm({ label, submitLabel, schema, onAdd }: AddNameFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useNameForm(schema, '');

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await onAdd(name);
      notify.success(`${name} added`);
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
      <Field label="Name" autoComplete="off" registration={register('name')} error={errors.name?.message} />
      <button type="submit" className="button button--primary schedule-form__submit" disabled={isSubmitting}>
        {isSubmitting ? 'Adding…' : submitLabel}
      </button>
    </form>
  );
}

type RenameDialogProps = {
  /** The name it has now. */
  name: string;
  schema: NameSchema;
  /** Renames it; answers the success toast's text. A refusal shows the server's message and keeps the dialog. */
  onRename(name: string): Promise<string>;
  onClose(): void;
};

/** "Rename {name}": a dialog with the new name, "Save" and "Cancel". */
export function RenameDialog({ name, schema, onRename, onClose }: RenameDialogProps) {
  const titleId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useNameForm(schema, name);

  const onSubmit = handleSubmit(async (values) => {
    try {
      notify.success(await onRename(values.name));
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
        <Field label="New name" autoComplete="off" registration={register('name')} error={errors.name?.message} />
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
