import { useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { downloadData } from '../../privacy/api/download-data.ts';
import { deleteUser } from '../api/delete-user.ts';
import { USERS_PAGE_SIZE, type User, useUsers } from '../api/get-users.ts';
import { makeAdmin } from '../api/make-admin.ts';
import '../users.css';

/**
 * docs/product-admin.md#all-users (admin): the users, found by name or email, 50 a page; Make Admin for
 * non-admins, Delete after a confirmation.
 */
export function AllUsersPage() {
  const ids = useId();
  const { user: me } = useSession();
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const { data, error, isValidating } = useUsers(query, page);
  const users = data?.users;
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
          <span className="users-table__actions">
            <button
              type="button"
              className="button button--small"
              aria-label={`Their data: ${user.name}`}
              onClick={() => void downloadData(user._id).catch((cause: unknown) => notify.error(errorText(cause)))}
            >
              Their data
            </button>
            <button type="button" className="button button--small button--danger" onClick={() => deletion.ask(user)}>
              Delete
            </button>
          </span>
        ),
    },
  ];

  const toDelete = deletion.pending;
  return (
    <section className="dashboard-page" aria-labelledby="all-users-title">
      <h1 id="all-users-title" ref={headingRef} tabIndex={-1}>
        All Users
      </h1>
      <search className="users-search">
        <div className="field">
          <label htmlFor={`${ids}-q`}>Find by name or email</label>
          <input
            id={`${ids}-q`}
            type="search"
            autoComplete="off"
            maxLength={100}
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setPage(1);
            }}
          />
        </div>
      </search>
      {!data ? (
        <Spinner label="Loading users" />
      ) : (
        <>
          <p className="users-count" role="status" aria-busy={isValidating || undefined}>
            {data.total === 0
              ? 'Nobody matches.'
              : `${(page - 1) * USERS_PAGE_SIZE + 1}–${(page - 1) * USERS_PAGE_SIZE + (users?.length ?? 0)} of ${data.total} ${data.total === 1 ? 'user' : 'users'}`}
          </p>
          {users && users.length > 0 && (
            <DataTable caption="Users" columns={columns} rows={users} rowKey={(user) => user._id} />
          )}
          {(page > 1 || data.hasNext) && (
            <nav className="users-pages" aria-label="Pages of users">
              <button
                type="button"
                className="button button--small"
                disabled={page === 1}
                onClick={() => setPage(page - 1)}
              >
                Previous page
              </button>
              <span>
                Page {page} of {Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE))}
              </span>
              <button
                type="button"
                className="button button--small"
                disabled={!data.hasNext}
                onClick={() => setPage(page + 1)}
              >
                Next page
              </button>
            </nav>
          )}
        </>
      )}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          busy={deletion.busy}
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
        >
          <p>
            {toDelete.name}
            {toDelete.email && ` (${toDelete.email})`} will be removed from the clinic: their upcoming appointments are
            cancelled, paid ones refunded, and each is told by mail. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
