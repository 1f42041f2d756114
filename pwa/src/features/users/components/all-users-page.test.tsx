import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';
import type { User } from '../api/get-users.ts';

let users: User[];
let requests: string[];
let total: number | null;
let answerPut: (id: string) => Response;
let answerDelete: (id: string) => Response;

beforeEach(() => {
  users = [
    { _id: 'u-admin', name: 'Ada Admin', email: 'admin@clinic.test', role: 'admin' },
    { _id: 'u-pat', name: 'Pat Patient', email: 'patient@clinic.test', role: 'patient' },
    { _id: 'u-otto', name: 'Otto Other', email: 'otto@clinic.test', role: 'admin' },
  ];
  requests = [];
  total = null;
  answerPut = (id) => {
    const user = users.find((u) => u._id === id)!;
    user.role = 'admin';
    return json({ acknowledged: true, modifiedCount: 1, message: `${user.name} is now an admin` });
  };
  answerDelete = (id) => {
    users = users.filter((u) => u._id !== id);
    return json({ acknowledged: true, deletedCount: 1 });
  };
  stubFetch((request) => {
    const url = new URL(request.url);
    requests.push(describeRequest(request));
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/users' && request.method === 'GET') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('page'));
      const found = users.filter((u) => `${u.name} ${u.email}`.toLowerCase().includes(q));
      const all = total ?? found.length;
      const response = json(total === null ? found : found.map((u) => ({ ...u, name: `${u.name} p${page}` })));
      response.headers.set('X-Total-Count', String(all));
      if (page * 50 < all) response.headers.set('Link', `</api/users?page=${page + 1}>; rel="next"`);
      return response;
    }
    if (url.pathname.startsWith('/api/users/admin/') && request.method === 'PUT') {
      return answerPut(decodeURIComponent(url.pathname.split('/').pop()!));
    }
    if (url.pathname.startsWith('/api/users/') && request.method === 'DELETE') {
      return answerDelete(decodeURIComponent(url.pathname.split('/').pop()!));
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openAllUsers() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/all-users' });
  await screen.findByRole('heading', { level: 1, name: 'All Users' });
  await screen.findByRole('table', { name: 'Users' });
  return user;
}

const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);
const usersListed = () => requests.filter((r) => r.startsWith('GET /api/users?')).length;

describe('All Users page', () => {
  it('lists every user with #, Name, Email and Role, and offers Make Admin only to non-admins', async () => {
    await openAllUsers();
    const table = screen.getByRole('table', { name: 'Users' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Name', 'Email', 'Role', 'Actions']);
    const [, ...body] = within(table).getAllByRole('row');
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(0, 2),
      ),
    ).toEqual([
      ['Ada Admin', 'admin@clinic.test'],
      ['Pat Patient', 'patient@clinic.test'],
      ['Otto Other', 'otto@clinic.test'],
    ]);
    expect(body.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['1', '2', '3']);

    expect(row('Pat Patient').getByRole('button', { name: 'Make Admin' })).toBeTruthy();
    expect(row('Otto Other').queryByRole('button', { name: 'Make Admin' })).toBeNull();
    expect(row('Otto Other').getByText('Admin')).toBeTruthy();
    expect(row('Ada Admin').queryByRole('button', { name: 'Make Admin' })).toBeNull();
  });

  it('offers Delete on every row but the signed-in admin’s own', async () => {
    await openAllUsers();
    expect(row('Ada Admin').queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(row('Pat Patient').getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(row('Otto Other').getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('makes a user admin: success toast with the server message, list refetched', async () => {
    const user = await openAllUsers();
    expect(usersListed()).toBe(1);
    await user.click(row('Pat Patient').getByRole('button', { name: 'Make Admin' }));

    expect(await findToast('Pat Patient is now an admin')).toBe('success');
    expect(requests).toContain('PUT /api/users/admin/u-pat');
    await waitFor(() => expect(row('Pat Patient').queryByRole('button', { name: 'Make Admin' })).toBeNull());
    expect(row('Pat Patient').getByText('Admin')).toBeTruthy();
    expect(usersListed()).toBe(2);
  });

  it('shows an error toast with the server message when nothing was modified', async () => {
    answerPut = () => json({ acknowledged: true, modifiedCount: 0, message: 'Pat Patient is already an admin' });
    const user = await openAllUsers();
    await user.click(row('Pat Patient').getByRole('button', { name: 'Make Admin' }));

    expect(await findToast('Pat Patient is already an admin')).toBe('error');
  });

  it('shows an error toast with the server message when the call fails', async () => {
    answerPut = () => json({ acknowledged: false, message: 'Only an admin may do this' }, 403);
    const user = await openAllUsers();
    await user.click(row('Pat Patient').getByRole('button', { name: 'Make Admin' }));

    expect(await findToast('Only an admin may do this')).toBe('error');
    expect(row('Pat Patient').getByRole('button', { name: 'Make Admin' })).toBeTruthy();
  });

  it('asks before deleting and deletes nothing on Cancel or Escape', async () => {
    const user = await openAllUsers();
    const opener = row('Pat Patient').getByRole('button', { name: 'Delete' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Delete Pat Patient?' });
    expect(dialog.textContent).toContain('patient@clinic.test');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
    expect(row('Pat Patient').getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('deletes after Delete is confirmed: DELETE, toast "{name} deleted", list refetched', async () => {
    const user = await openAllUsers();
    await user.click(row('Pat Patient').getByRole('button', { name: 'Delete' }));
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);

    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Pat Patient?' })).getByRole('button', { name: 'Delete' }),
    );

    expect(await findToast('Pat Patient deleted')).toBe('success');
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual(['DELETE /api/users/u-pat']);
    await waitFor(() => expect(screen.queryByText('patient@clinic.test')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(usersListed()).toBe(2);
  });

  it("shows the server's message in an error toast when deleting fails", async () => {
    answerDelete = () => json({ acknowledged: false, message: 'You cannot delete your own account' }, 403);
    const user = await openAllUsers();
    await user.click(row('Otto Other').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await findToast('You cannot delete your own account')).toBe('error');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(row('Otto Other').getByText('otto@clinic.test')).toBeTruthy();
  });

  it('finds users by name or email on the server, and says how many match', async () => {
    const user = await openAllUsers();
    expect(screen.getByText('1–3 of 3 users')).toBeTruthy();
    await user.type(screen.getByLabelText('Find by name or email'), 'otto');
    await waitFor(() => expect(screen.getByText('1–1 of 1 user')).toBeTruthy());
    expect(screen.queryByText('patient@clinic.test')).toBeNull();
    expect(requests).toContain('GET /api/users?q=otto&page=1');
    await user.type(screen.getByLabelText('Find by name or email'), 'zzz');
    expect(await screen.findByText('Nobody matches.')).toBeTruthy();
  });

  it('pages through a long list, 50 at a time', async () => {
    total = 120;
    const user = await openAllUsers();
    expect(screen.getByText('1–3 of 120 users')).toBeTruthy();
    const pages = within(screen.getByRole('navigation', { name: 'Pages of users' }));
    expect(pages.getByText('Page 1 of 3')).toBeTruthy();
    expect((pages.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(pages.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Pat Patient p2')).toBeTruthy();
    expect(pages.getByText('Page 2 of 3')).toBeTruthy();
    expect(requests).toContain('GET /api/users?page=2');
  });
});
