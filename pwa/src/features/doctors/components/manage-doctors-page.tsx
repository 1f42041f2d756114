import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeleteDoctor } from '../api/delete-doctor.ts';
import { useDoctors, type Doctor } from '../api/get-doctors.ts';
import './doctors.css';

/** SPEC §2 Manage Doctors (admin): every doctor with their photo; Delete after a confirmation. */
export function ManageDoctorsPage() {
  const { data: doctors, error, isValidating, mutate } = useDoctors();
  const deleteDoctor = useDeleteDoctor();
  const [toDelete, setToDelete] = useState<Doctor | null>(null);
  const [deleting, setDeleting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  async function handleDelete(doctor: Doctor) {
    setDeleting(true);
    try {
      await deleteDoctor(doctor._id);
      notify.success(`Doctor ${doctor.name} deleted success`);
      setToDelete(null);
      headingRef.current?.focus(); // the row whose button opened the dialog is gone
    } catch (cause) {
      console.error(cause);
      notify.error(errorText(cause));
      setToDelete(null);
    } finally {
      setDeleting(false);
    }
  }

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
        <div className="table-scroll">
          <table className="table doctors-table">
            <caption className="visually-hidden">Doctors</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Avatar</th>
                <th scope="col">Name</th>
                <th scope="col">Specialty</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {doctors.map((doctor, index) => (
                <tr key={doctor._id}>
                  <th scope="row">{index + 1}</th>
                  <td>
                    <img className="doctor-avatar" src={doctor.image} alt={doctor.name} width={48} height={48} loading="lazy" />
                  </td>
                  <td>{doctor.name}</td>
                  <td>{doctor.specialty}</td>
                  <td>
                    <button type="button" className="button button--small button--danger" onClick={() => setToDelete(doctor)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          confirmLabel="Delete"
          cancelLabel="Cancel"
          busy={deleting}
          onConfirm={() => handleDelete(toDelete)}
          onCancel={() => setToDelete(null)}
        >
          <p>This removes the doctor and their photo.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
