import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { KeptBookingsNotice, StrandedConflictDialog } from '../../../components/stranded-bookings.tsx';
import { useScheduleChange } from '../../../components/use-schedule-change.ts';
import { errorText } from '../../../lib/error-text.ts';
import { weeklyHoursText } from '../../../lib/schedule-text.ts';
import { deleteDoctor } from '../api/delete-doctor.ts';
import { type Doctor, useDoctors } from '../api/get-doctors.ts';
import { type DoctorChanges, updateDoctor } from '../api/update-doctor.ts';
import { DoctorDialog } from './doctor-dialog.tsx';
import './doctors.css';

/**
 * docs/product-admin.md#manage-doctors (admin): every doctor with their photo, specialty and hours on
 * each day; Edit (name, specialty, photo, hours per weekday), and Delete after a confirmation.
 * Either change, when it would strand upcoming bookings, lists them and offers to go ahead anyway.
 */
/** A doctor's calendar feed (the feeds feature's, composed in by the app: app/pages/manage-doctors-page.tsx). */
export type DoctorFeedSlot = (doctor: { _id: string; name: string }) => ReactNode;

export function ManageDoctorsPage({ calendarFeed }: { calendarFeed?: DoctorFeedSlot }) {
  const { data: doctors, error, isValidating, mutate } = useDoctors();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [toDelete, setToDelete] = useState<Doctor | null>(null);
  const [editing, setEditing] = useState<Doctor | null>(null);
  const [feedOf, setFeedOf] = useState<Doctor | null>(null);
  const deletion = useScheduleChange<Doctor>({
    run: (doctor, resolution) => deleteDoctor(doctor._id, resolution),
    successText: (doctor) => `Doctor ${doctor.name} deleted success`,
    focusAfter: headingRef,
  });
  const edit = useScheduleChange<{ doctor: Doctor; changes: DoctorChanges }>({
    run: ({ doctor, changes }, resolution) => updateDoctor(doctor._id, changes, resolution),
    successText: ({ doctor, changes }) => `${changes.name ?? doctor.name} saved`,
    onDone: () => setEditing(null),
  });

  async function confirmDelete() {
    if (!toDelete) return;
    await deletion.submit(toDelete);
    setToDelete(null);
  }

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
    { header: 'Hours', cell: (doctor) => weeklyHoursText(doctor.weeklyHours) },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (doctor) => (
        <div className="doctors-table__actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => setEditing(doctor)}
            aria-label={`Edit ${doctor.name}`}
          >
            Edit
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => setFeedOf(doctor)}
            aria-label={`Calendar feed of ${doctor.name}`}
          >
            Calendar feed
          </button>
          <button type="button" className="button button--small button--danger" onClick={() => setToDelete(doctor)}>
            Delete
          </button>
        </div>
      ),
    },
  ];

  return (
    <section className="dashboard-page" aria-labelledby="manage-doctors-title">
      <h1 id="manage-doctors-title" ref={headingRef} tabIndex={-1}>
        Manage Doctors
      </h1>
      <KeptBookingsNotice change={deletion} />
      <KeptBookingsNotice change={edit} />
      {error && (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          The doctors could not be loaded: {errorText(error)}
        </LoadError>
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
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          <p>This removes the doctor and their photo.</p>
        </ConfirmDialog>
      )}
      {editing && (
        <DoctorDialog
          doctor={editing}
          onSave={(changes) => edit.submit({ doctor: editing, changes })}
          onClose={() => setEditing(null)}
        />
      )}
      {feedOf && (
        <Modal labelledBy="doctor-feed-title" onClose={() => setFeedOf(null)}>
          <h2 id="doctor-feed-title" className="modal__title">
            Calendar feed of {feedOf.name}
          </h2>
          <button type="button" className="modal__close" aria-label="Close" onClick={() => setFeedOf(null)}>
            ×
          </button>
          {calendarFeed?.(feedOf)}
        </Modal>
      )}
      <StrandedConflictDialog change={deletion} confirmLabel="Delete anyway" />
      <StrandedConflictDialog change={edit} confirmLabel="Save anyway" />
    </section>
  );
}
