import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
import type { Doctor } from '../api/get-doctors.ts';

let doctors: Doctor[];
let requests: string[];
let answerList: () => Response;
let answerDelete: (id: string) => Response;

beforeEach(() => {
  doctors = [
    {
      _id: 'd1',
      name: 'Ada Lovelace',
      email: 'ada@clinic.test',
      specialty: 'Cosmetic Dentistry',
      image: '/api/images/aaaaaaaaaaaa.png',
      workingDays: [1, 2, 3, 4, 5],
      hours: { start: '09:00', end: '17:00' },
    },
    {
      _id: 'd2',
      name: 'Grace Hopper',
      email: 'grace@clinic.test',
      specialty: 'General Dentistry',
      image: '/api/images/bbbbbbbbbbbb.jpg',
      workingDays: [1, 2, 3, 4, 5],
      hours: { start: '09:00', end: '17:00' },
    },
  ];
  requests = [];
  answerList = () => json(doctors);
  answerDelete = (id) => {
    doctors = doctors.filter((d) => d._id !== id);
    return json({ acknowledged: true, deletedCount: 1 });
  };
  stubFetch((request) => {
    const url = new URL(request.url);
    requests.push(describeRequest(request));
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/doctors' && request.method === 'GET') return answerList();
    if (url.pathname.startsWith('/api/doctors/') && request.method === 'DELETE') {
      return answerDelete(decodeURIComponent(url.pathname.split('/').pop()!));
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openManageDoctors() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/manage-doctors' });
  await screen.findByRole('heading', { level: 1, name: 'Manage Doctors' });
  return user;
}

const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);
const doctorsListed = () => requests.filter((r) => r === 'GET /api/doctors').length;
const deletes = () => requests.filter((r) => r.startsWith('DELETE'));

describe('Manage Doctors page', () => {
  it('lists every doctor with #, Avatar (their photo), Name and Specialty, and a Delete button', async () => {
    await openManageDoctors();
    const table = await screen.findByRole('table', { name: 'Doctors' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Avatar', 'Name', 'Specialty', 'Actions']);
    const [, ...body] = within(table).getAllByRole('row');
    expect(body.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['1', '2']);
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(1, 3),
      ),
    ).toEqual([
      ['Ada Lovelace', 'Cosmetic Dentistry'],
      ['Grace Hopper', 'General Dentistry'],
    ]);

    const photo = row('Ada Lovelace').getByRole('img', { name: 'Ada Lovelace' }) as HTMLImageElement;
    expect(photo.getAttribute('src')).toBe('/api/images/aaaaaaaaaaaa.png');
    expect(photo.getAttribute('loading')).toBe('lazy');
    expect(photo.getAttribute('width')).toBe('48');
    expect(row('Grace Hopper').getByRole('img', { name: 'Grace Hopper' }).getAttribute('src')).toBe(
      '/api/images/bbbbbbbbbbbb.jpg',
    );
    expect(row('Grace Hopper').getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('asks before deleting and deletes nothing on Cancel or Escape', async () => {
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    const opener = row('Ada Lovelace').getByRole('button', { name: 'Delete' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Delete Ada Lovelace?' });
    expect(within(dialog).getByText('This removes the doctor and their photo.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    expect(deletes()).toEqual([]);
    expect(row('Ada Lovelace').getByRole('img', { name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('deletes after Delete is confirmed: DELETE, toast "Doctor {name} deleted success", list refetched', async () => {
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    expect(doctorsListed()).toBe(1);
    await user.click(row('Grace Hopper').getByRole('button', { name: 'Delete' }));
    expect(deletes()).toEqual([]);

    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Grace Hopper?' })).getByRole('button', { name: 'Delete' }),
    );

    expect(await findToast('Doctor Grace Hopper deleted success')).toBe('success');
    expect(deletes()).toEqual(['DELETE /api/doctors/d2']);
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Grace Hopper' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(doctorsListed()).toBe(2);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toBeTruthy();
  });

  it("shows the server's message in an error toast when deleting fails, and keeps the doctor", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerDelete = () => json({ acknowledged: false, message: 'Only an admin may do this' }, 403);
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    await user.click(row('Ada Lovelace').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await findToast('Only an admin may do this')).toBe('error');
    expect(screen.queryByText('Doctor Ada Lovelace deleted success')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(row('Ada Lovelace').getByRole('img', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(logged).toHaveBeenCalled();
  });

  it('says on the page that the doctors could not be loaded, and can try again', async () => {
    answerList = () => json({ message: 'The clinic database is unavailable' }, 503);
    const user = await openManageDoctors();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The doctors could not be loaded: The clinic database is unavailable');
    expect(screen.queryByRole('table')).toBeNull();

    answerList = () => json(doctors);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Doctors' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when there are no doctors yet and links to Add A Doctor', async () => {
    doctors = [];
    await openManageDoctors();
    const empty = await screen.findByText(/No doctors yet\./);
    const link = within(empty).getByRole('link', { name: 'Add A Doctor' });
    expect(link.getAttribute('href')).toBe('/dashboard/add-doctors');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
