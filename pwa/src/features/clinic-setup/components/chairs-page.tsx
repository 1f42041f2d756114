import { useRef, useState } from 'react';
import { NewChair } from '../../../../../contract/clinic.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { KeptBookingsNotice, StrandedConflictDialog } from '../../../components/stranded-bookings.tsx';
import { useScheduleChange } from '../../../components/use-schedule-change.ts';
import { errorText } from '../../../lib/error-text.ts';
import { addChair, type Chair, deleteChair, renameChair, useChairs } from '../api/chairs.ts';
import { AddNameForm, RenameDialog } from './name-forms.tsx';
import '../clinic-setup.css';

/**
 * docs/product-admin.md#chairs (admin): the treatment chairs every booking takes one of; Add, Rename, and
 * Delete after a confirmation (a chair with upcoming bookings: the list of them, and "Delete anyway").
 */
export function ChairsPage() {
  const { data: chairs, error, isValidating, mutate } = useChairs();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [toDelete, setToDelete] = useState<Chair | null>(null);
  const [toRename, setToRename] = useState<Chair | null>(null);
  const removal = useScheduleChange<Chair>({
    run: (chair, resolution) => deleteChair(chair._id, resolution),
    successText: (chair) => `${chair.name} deleted`,
    focusAfter: headingRef,
  });
  async function confirmDelete() {
    if (!toDelete) return;
    await removal.submit(toDelete);
    setToDelete(null);
  }

  const columns: Column<Chair>[] = [
    positionColumn,
    { header: 'Name', className: 'schedule-table__wrap', cell: (chair) => chair.name },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (chair) => (
        <div className="schedule-table__actions">
          <button type="button" className="button button--small" onClick={() => setToRename(chair)}>
            Rename<span className="visually-hidden"> {chair.name}</span>
          </button>
          <button type="button" className="button button--small button--danger" onClick={() => setToDelete(chair)}>
            Delete
          </button>
        </div>
      ),
    },
  ];

  return (
    <section className="dashboard-page" aria-labelledby="chairs-title">
      <h1 id="chairs-title" ref={headingRef} tabIndex={-1}>
        Chairs
      </h1>
      <p className="schedule-page__intro">
        The clinic's treatment chairs. Every booking takes one chair for its whole length, so the number of chairs is
        how many patients can be seen at once.
      </p>
      <KeptBookingsNotice change={removal} />
      {error && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The chairs could not be loaded: {errorText(error)}
        </LoadError>
      )}
      {!chairs ? (
        !error && <Spinner label="Loading chairs" />
      ) : chairs.length === 0 ? (
        <p className="schedule-empty">No chairs yet: patients cannot book until there is one.</p>
      ) : (
        <DataTable
          caption="Chairs"
          className="schedule-table"
          columns={columns}
          rows={chairs}
          rowKey={(chair) => chair._id}
        />
      )}
      <AddNameForm label="Add a chair" submitLabel="Add chair" schema={NewChair} onAdd={(name) => addChair({ name })} />
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={removal.busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          <p>Patients will no longer be booked into it.</p>
        </ConfirmDialog>
      )}
      {toRename && (
        <RenameDialog
          name={toRename.name}
          schema={NewChair}
          onRename={async (name) => (await renameChair(toRename._id, { name })).message}
          onClose={() => setToRename(null)}
        />
      )}
      <StrandedConflictDialog change={removal} confirmLabel="Delete anyway" />
    </section>
  );
}
