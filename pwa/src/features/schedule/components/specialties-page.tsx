import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import {
  type SpecialtyInUse,
  useAddSpecialty,
  useDeleteSpecialty,
  useRenameSpecialty,
  useSpecialtiesInUse,
} from '../api/specialties.ts';
import '../schedule.css';

const nameRules = {
  validate: (value: string) => value.trim() !== '' || 'name is required',
  maxLength: { value: 100, message: 'name must be at most 100 characters' },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * docs/product.md#specialties (admin): who may perform a treatment. Add one, rename one, and delete
 * one that no doctor and no treatment has (the server refuses the others and says who has it).
 */
export function SpecialtiesPage() {
  const { data: specialties, error, isValidating, mutate } = useSpecialtiesInUse();
  const addSpecialty = useAddSpecialty();
  const deleteSpecialty = useDeleteSpecialty();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [toRename, setToRename] = useState<SpecialtyInUse | null>(null);
  const [toDelete, setToDelete] = useState<SpecialtyInUse | null>(null);
  const [deleting, setDeleting] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ defaultValues: { name: '' } });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await addSpecialty({ name: name.trim() });
      notify.success(`${name.trim()} added`);
      reset();
    } catch (cause) {
      console.error(cause);
      notify.error(errorText(cause));
    }
  });

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteSpecialty(toDelete._id);
      notify.success(`${toDelete.name} deleted`);
    } catch (cause) {
      console.error(cause);
      notify.error(errorText(cause));
    } finally {
      setDeleting(false);
      setToDelete(null);
      headingRef.current?.focus();
    }
  }

  const columns: Column<SpecialtyInUse>[] = [
    positionColumn,
    { header: 'Name', className: 'schedule-table__wrap', cell: (specialty) => specialty.name },
    {
      header: 'Used by',
      cell: (specialty) =>
        specialty.doctors + specialty.treatments === 0
          ? 'Nobody yet'
          : `${plural(specialty.doctors, 'doctor')}, ${plural(specialty.treatments, 'treatment')}`,
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (specialty) => (
        <span className="schedule-table__actions">
          <button type="button" className="button button--small" onClick={() => setToRename(specialty)}>
            Rename<span className="visually-hidden"> {specialty.name}</span>
          </button>
          <button type="button" className="button button--small button--danger" onClick={() => setToDelete(specialty)}>
            Delete<span className="visually-hidden"> {specialty.name}</span>
          </button>
        </span>
      ),
    },
  ];

  return (
    <section className="dashboard-page" aria-labelledby="specialties-title">
      <h1 id="specialties-title" ref={headingRef} tabIndex={-1}>
        Specialties
      </h1>
      <p className="schedule-page__intro">
        Who may perform a treatment: each treatment needs a specialty, and only doctors of that specialty are booked for
        it.
      </p>
      {error && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The specialties could not be loaded: {errorText(error)}
        </LoadError>
      )}
      {!specialties ? (
        !error && <Spinner label="Loading specialties" />
      ) : (
        <DataTable
          caption="Specialties"
          className="schedule-table"
          columns={columns}
          rows={specialties}
          rowKey={(specialty) => specialty._id}
        />
      )}
      <form
        className="schedule-form chair-form"
        onSubmit={onSubmit}
        noValidate
        aria-label="Add a specialty"
        aria-busy={isSubmitting || undefined}
      >
        <FormField
          label="Name"
          autoComplete="off"
          registration={register('name', nameRules)}
          error={errors.name?.message}
        />
        <button type="submit" className="button button--primary schedule-form__submit" disabled={isSubmitting}>
          {isSubmitting ? 'Adding…' : 'Add specialty'}
        </button>
      </form>
      {toRename && <RenameDialog specialty={toRename} onClose={() => setToRename(null)} />}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={deleting}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          <p>Treatments and doctors can no longer be given this specialty.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function RenameDialog({ specialty, onClose }: { specialty: SpecialtyInUse; onClose(): void }) {
  const titleId = useId();
  const renameSpecialty = useRenameSpecialty();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ defaultValues: { name: specialty.name } });

  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      const answer = await renameSpecialty(specialty._id, { name: name.trim() });
      notify.success(answer.message);
      onClose();
    } catch (cause) {
      console.error(cause);
      notify.error(errorText(cause));
    }
  });

  return (
    <Modal labelledBy={titleId} onClose={() => !isSubmitting && onClose()}>
      <h2 id={titleId} className="modal__title">
        Rename {specialty.name}
      </h2>
      <form onSubmit={onSubmit} noValidate aria-busy={isSubmitting || undefined}>
        <FormField
          label="New name"
          autoComplete="off"
          registration={register('name', nameRules)}
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
