import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { errorText, logUnexpected } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { paymentRuleShort } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { deleteTreatment, type Treatment, updateTreatment, useTreatments } from '../api/treatments.ts';
import '../clinic-setup.css';

import { TreatmentDialog } from './treatment-dialog.tsx';

/**
 * docs/product-admin.md#treatments (admin): every treatment with its specialty, length, price and whether
 * patients can book it; Add, Edit, Deactivate (or Activate) and Delete.
 */
export function TreatmentsPage() {
  const { data: treatments, error, isValidating, mutate } = useTreatments();
  // undefined: no dialog; null: adding; a treatment: editing it.
  const [editing, setEditing] = useState<Treatment | null | undefined>(undefined);
  const [switching, setSwitching] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const deletion = useConfirmedAction({
    run: (treatment: Treatment) => deleteTreatment(treatment._id),
    // "Filling deleted", or that it had upcoming bookings and was deactivated instead.
    successText: (_treatment, result) => result.message,
    focusAfter: headingRef,
  });

  async function switchActive(treatment: Treatment) {
    setSwitching(treatment._id);
    try {
      await updateTreatment(treatment._id, { active: !treatment.active });
      notify.success(`${treatment.name} ${treatment.active ? 'deactivated' : 'activated'}`);
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
    } finally {
      setSwitching(null);
    }
  }

  const columns: Column<Treatment>[] = [
    positionColumn,
    { header: 'Name', className: 'schedule-table__wrap', cell: (treatment) => treatment.name },
    { header: 'Specialty', className: 'schedule-table__wrap', cell: (treatment) => treatment.specialty },
    { header: 'Length', cell: (treatment) => lengthText(treatment.durationMinutes) },
    {
      header: 'Price',
      className: 'schedule-table__wrap',
      // How it is paid when not in full online: "$100, 30% deposit".
      cell: (treatment) =>
        treatment.payment === 'full'
          ? formatPrice(treatment.price)
          : `${formatPrice(treatment.price)}, ${paymentRuleShort(treatment)}`,
    },
    {
      header: 'Recall',
      cell: (treatment) => (treatment.recallMonths === null ? '—' : `${treatment.recallMonths} months`),
    },
    {
      header: 'Status',
      cell: (treatment) =>
        treatment.active ? <span className="badge">Active</span> : <span className="muted">Inactive</span>,
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (treatment) => (
        <div className="schedule-table__actions">
          <button type="button" className="button button--small" onClick={() => setEditing(treatment)}>
            Edit
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => void switchActive(treatment)}
            disabled={switching === treatment._id}
          >
            {treatment.active ? 'Deactivate' : 'Activate'}
          </button>
          <button type="button" className="button button--small button--danger" onClick={() => deletion.ask(treatment)}>
            Delete
          </button>
        </div>
      ),
    },
  ];

  const toDelete = deletion.pending;
  return (
    <section className="dashboard-page" aria-labelledby="treatments-title">
      <div className="schedule-page__header">
        <h1 id="treatments-title" ref={headingRef} tabIndex={-1}>
          Treatments
        </h1>
        <button type="button" className="button button--primary" onClick={() => setEditing(null)}>
          Add treatment
        </button>
      </div>
      <p className="schedule-page__intro">
        What patients can book, how long it takes and which specialty performs it. Patients see only active treatments.
      </p>
      {error && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The treatments could not be loaded: {errorText(error)}
        </LoadError>
      )}
      {!treatments ? (
        !error && <Spinner label="Loading treatments" />
      ) : treatments.length === 0 ? (
        <p className="schedule-empty">No treatments yet.</p>
      ) : (
        <DataTable
          caption="Treatments"
          className="schedule-table"
          columns={columns}
          rows={treatments}
          rowKey={(treatment) => treatment._id}
        />
      )}
      {editing !== undefined && <TreatmentDialog treatment={editing} onClose={() => setEditing(undefined)} />}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={deletion.busy}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
        >
          <p>
            Patients will no longer be able to book it. If it has upcoming bookings, it is deactivated instead and its
            bookings stay.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
