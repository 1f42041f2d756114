import { useRef } from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useDeleteDoctor } from '../api/delete-doctor.ts';
import { type Doctor, useDoctors } from '../api/get-doctors.ts';
import './doctors.css';

/** docs/product.md#manage-doctors (admin): every doctor with their photo; Delete after a confirmation. */
export function ManageDoctorsPage() {
  const { data: doctors, error, isValidating, mutate } = useDoctors();
  const deleteDoctor = useDeleteDoctor();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const deletion = useConfirmedAction<Doctor>({
    run: (doctor) => deleteDoctor(doctor._id),
    successText: (doctor) => `Doctor ${doctor.name} deleted success`,
    focusAfter: headingRef,
  });

  const columns: Column<Doctor>[] = [
    positionColumn,
    {
      header: 'Avatar',
      cell: (doctor) => (
        <img className="doctor-avatar" src={doctor.image} alt={doctor.name} width={48} height={48} loading="lazy" />
      ),
    },
    { header: 'Name', cell: (doctor) => doctor.name },
    { header: 'Specialty', cell: (doctor) => doctor.specialty },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (doctor) => (
        <button type="button" className="button button--small button--danger" onClick={() => deletion.ask(doctor)}>
          Delete
        </button>
      ),
    },
  ];

  const toDelete = deletion.pending;
  return (
    <section className="dashboard-page" aria-labelledby="manage-doctors-title">
      <h1 id="manage-doctors-title" ref={headingRef} tabIndex={-1}>
        Manage Doctors
      </h1>
      {error && (
        <div className="doctors-load-error" role="alert">
          <p>The doctors could not be loaded: {errorText(error)}</p>
          <button type="button" className="button button--small" onClick={() => void mutate()} disabled={isValidating}>
            Try again
          </button>
        </div>
      )}
      {!doctors ? (
        !error && <Spinner label="Loading doctors" />
      ) : doctors.length === 0 ? (
        <p className="doctors-empty">
          No doctors yet. <Link href="/dashboard/add-doctors">Add A Doctor</Link>
        </p>
      ) : (
        <DataTable
          caption="Doctors"
          className="doctors-table"
          columns={columns}
          rows={doctors}
          rowKey={(doctor) => doctor._id}
        />
      )}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          confirmLabel="Delete"
          cancelLabel="Cancel"
          busy={deletion.busy}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
        >
          <p>This removes the doctor and their photo.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
