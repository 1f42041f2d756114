import { useRef, useState } from 'react';
import { NewSpecialty } from '../../../../../contract/clinic.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import {
  addSpecialty,
  deleteSpecialty,
  renameSpecialty,
  type SpecialtyInUse,
  useSpecialtiesInUse,
} from '../api/specialties.ts';
import { AddNameForm, RenameDialog } from './name-forms.tsx';
import '../clinic-setup.css';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * docs/product-admin.md#specialties (admin): who may perform a treatment. Add one, rename one, and delete
 * one that no doctor and no treatment has (the server refuses the others and says who has it).
 */
export function SpecialtiesPage() {
  const { data: specialties, error, isValidating, mutate } = useSpecialtiesInUse();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [toRename, setToRename] = useState<SpecialtyInUse | null>(null);
  const [toDelete, setToDelete] = useState<SpecialtyInUse | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteSpecialty(toDelete._id);
      notify.success(`${toDelete.name} deleted`);
    } catch (cause) {
      logUnexpected(cause);
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
      <AddNameForm
        label="Add a specialty"
        submitLabel="Add specialty"
        schema={NewSpecialty}
        onAdd={(name) => addSpecialty({ name })}
      />
      {toRename && (
        <RenameDialog
          name={toRename.name}
          schema={NewSpecialty}
          onRename={async (name) => (await renameSpecialty(toRename._id, { name })).message}
          onClose={() => setToRename(null)}
        />
      )}
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
