import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUsers, type User } from '../api/get-users.ts';
import { useMakeAdmin } from '../api/make-admin.ts';

/** SPEC §2 All Users (admin): every user, Make Admin for non-admins, Delete after a confirmation. */
export function AllUsersPage() {
  const { user: me } = useSession();
  const { data: users, error } = useUsers();
  const makeAdmin = useMakeAdmin();
  const deleteUser = useDeleteUser();
  const [promoting, setPromoting] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<User | null>(null);
  const [deleting, setDeleting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  if (error) throw error; // the layout's error screen

  async function handleMakeAdmin(user: User) {
    setPromoting(user._id);
    try {
      const result = await makeAdmin(user._id);
      if (result.modifiedCount > 0) {
        notify.success(result.message);
      } else {
        notify.error(result.message);
      }
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setPromoting(null);
    }
  }

  async function handleDelete(user: User) {
    setDeleting(true);
    try {
      await deleteUser(user._id);
      notify.success(`${user.name} deleted`);
      setToDelete(null);
      headingRef.current?.focus(); // the row whose button opened the dialog is gone
    } catch (cause) {
      notify.error(errorText(cause));
      setToDelete(null);
    } finally {
      setDeleting(false);
    }
  }

  return (
    <section className="dashboard-page" aria-labelledby="all-users-title">
      <h1 id="all-users-title" ref={headingRef} tabIndex={-1}>
        All Users
      </h1>
      {!users ? (
        <Spinner label="Loading users" />
      ) : (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user, index) => {
                const isMe = Boolean(me?.email) && user.email.toLowerCase() === me?.email?.toLowerCase();
                return (
                  <tr key={user._id}>
                    <th scope="row">{index + 1}</th>
                    <td>{user.name}</td>
                    <td>{user.email}</td>
                    <td>
                      {user.role === 'admin' ? (
                        <span className="badge">Admin</span>
                      ) : (
                        <button
                          type="button"
                          className="button button--small button--primary"
                          onClick={() => handleMakeAdmin(user)}
                          disabled={promoting === user._id}
                        >
                          Make Admin
                        </button>
                      )}
                    </td>
                    <td>
                      {isMe ? (
                        <span className="muted">You</span>
                      ) : (
                        <button
                          type="button"
                          className="button button--small button--danger"
                          onClick={() => setToDelete(user)}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={deleting}
          onConfirm={() => handleDelete(toDelete)}
          onCancel={() => setToDelete(null)}
        >
          <p>
            {toDelete.name} ({toDelete.email}) and their bookings will be removed from the clinic. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
