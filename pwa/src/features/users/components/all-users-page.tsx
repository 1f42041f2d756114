import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { useDeleteUser } from '../api/delete-user.ts';
import { type User, useUsers } from '../api/get-users.ts';
import { useMakeAdmin } from '../api/make-admin.ts';

/** docs/product.md#all-users (admin): every user, Make Admin for non-admins, Delete after a confirmation. */
export function AllUsersPage() {
  const { user: me } = useSession();
  const { data: users, error } = useUsers();
  const makeAdmin = useMakeAdmin();
  const deleteUser = useDeleteUser();
  const [promoting, setPromoting] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const deletion = useConfirmedAction<User>({
    run: (user) => deleteUser(user._id),
    successText: (user) => `${user.name} deleted`,
    focusAfter: headingRef,
  });

  if (error) throw error; // the layout's error screen

  async function handleMakeAdmin(user: User) {
    setPromoting(user._id);
    try {
      const result = await makeAdmin(user._id);
      if (result.modifiedCount > 0) notify.success(result.message);
      else notify.error(result.message);
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setPromoting(null);
    }
  }

  const isMe = (user: User) => Boolean(me?.email) && user.email.toLowerCase() === me?.email?.toLowerCase();
  const columns: Column<User>[] = [
    positionColumn,
    { header: 'Name', cell: (user) => user.name },
    { header: 'Email', cell: (user) => user.email },
    {
      header: 'Role',
      cell: (user) =>
        user.role === 'admin' ? (
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
        ),
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (user) =>
        isMe(user) ? (
          <span className="muted">You</span>
        ) : (
          <button type="button" className="button button--small button--danger" onClick={() => deletion.ask(user)}>
            Delete
          </button>
        ),
    },
  ];

  const toDelete = deletion.pending;
  return (
    <section className="dashboard-page" aria-labelledby="all-users-title">
      <h1 id="all-users-title" ref={headingRef} tabIndex={-1}>
        All Users
      </h1>
      {!users ? (
        <Spinner label="Loading users" />
      ) : (
        <DataTable caption="Users" columns={columns} rows={users} rowKey={(user) => user._id} />
      )}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={deletion.busy}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
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
