import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  describeRequest,
  dryRunAnswer,
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
let answerDelete: (id: string, force: boolean) => Response;
/** The bookings a change would strand, as a dry run of it answers. */
let wouldStrand: unknown[];
let changes: { id: string; body: Record<string, unknown> }[];
let answerChange: (body: Record<string, unknown>) => Response;

const STRANDED = {
  _id: 'b7',
  treatment: 'Teeth Whitening',
  appointmentDate: 'Nov 27, 2026',
  date: '2026-11-27',
  slot: '04.00 PM - 05.00 PM',
  patientName: 'Jamie Patient',
  email: 'patient@clinic.test',
  phone: '+1 555 0100',
  doctor: 'Ada Lovelace',
};

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
      weeklyHours: [
        { weekday: 1, start: '09:00', end: '17:00' },
        { weekday: 2, start: '09:00', end: '17:00' },
        { weekday: 3, start: '09:00', end: '17:00' },
        { weekday: 4, start: '09:00', end: '17:00' },
        { weekday: 5, start: '09:00', end: '17:00' },
      ],
    },
    {
      _id: 'd2',
      name: 'Grace Hopper',
      email: 'grace@clinic.test',
      specialty: 'General Dentistry',
      image: '/api/images/bbbbbbbbbbbb.jpg',
      workingDays: [1, 3, 6],
      hours: { start: '08:00', end: '12:30' },
      weeklyHours: [
        { weekday: 1, start: '08:00', end: '12:30' },
        { weekday: 3, start: '08:00', end: '12:30' },
        { weekday: 6, start: '08:00', end: '12:30' },
      ],
    },
  ];
  requests = [];
  changes = [];
  wouldStrand = [];
  answerChange = () => json({ acknowledged: true, modifiedCount: 1, stranded: [] });
  answerList = () => json(doctors);
  answerDelete = (id) => {
    doctors = doctors.filter((d) => d._id !== id);
    return json({ acknowledged: true, deletedCount: 1, stranded: [] });
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    requests.push(describeRequest(request));
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/doctors' && request.method === 'GET') return answerList();
    if (url.pathname === '/api/appointmentSpecialty')
      return json([
        { _id: 'general-dentistry', name: 'General Dentistry' },
        { _id: 'cosmetic-dentistry', name: 'Cosmetic Dentistry' },
      ]);
    if (url.pathname === '/api/images' && request.method === 'POST')
      return json({ success: true, data: { url: '/api/images/doctors/newphoto0001.png' } });
    if (url.pathname.startsWith('/api/doctors/') && url.searchParams.get('dryRun') === '1') {
      return dryRunAnswer(wouldStrand);
    }
    if (url.pathname.startsWith('/api/doctors/') && request.method === 'DELETE') {
      return answerDelete(decodeURIComponent(url.pathname.split('/').pop()!), url.searchParams.get('force') === 'true');
    }
    if (url.pathname.startsWith('/api/doctors/') && request.method === 'PUT') {
      const body = (await request.json()) as Record<string, unknown>;
      changes.push({ id: decodeURIComponent(url.pathname.split('/').pop()!), body });
      return answerChange(body);
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
  it('lists every doctor with #, Avatar (their photo), Name, Specialty, hours on each day, Edit and Delete', async () => {
    await openManageDoctors();
    const table = await screen.findByRole('table', { name: 'Doctors' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Avatar', 'Name', 'Specialty', 'Hours', 'Actions']);
    const [, ...body] = within(table).getAllByRole('row');
    expect(body.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['1', '2']);
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(1, 4),
      ),
    ).toEqual([
      ['Ada Lovelace', 'Cosmetic Dentistry', 'Mon–Fri 09:00–17:00'],
      ['Grace Hopper', 'General Dentistry', 'Mon, Wed, Sat 08:00–12:30'],
    ]);

    const photo = row('Ada Lovelace').getByRole('img', { name: 'Ada Lovelace' }) as HTMLImageElement;
    expect(photo.getAttribute('src')).toBe('/api/images/aaaaaaaaaaaa.png');
    expect(photo.getAttribute('loading')).toBe('lazy');
    expect(photo.getAttribute('width')).toBe('48');
    expect(row('Grace Hopper').getByRole('img', { name: 'Grace Hopper' }).getAttribute('src')).toBe(
      '/api/images/bbbbbbbbbbbb.jpg',
    );
    expect(row('Grace Hopper').getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(row('Grace Hopper').getByRole('button', { name: 'Edit Grace Hopper' })).toBeTruthy();
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
    expect(deletes()).toEqual(['DELETE /api/doctors/d2?dryRun=1', 'DELETE /api/doctors/d2']);
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
    // A refusal the page put in words is not an error of the app: the console stays clean.
    expect(logged).not.toHaveBeenCalled();
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

  it('edits the name, specialty, photo and different hours on different days, and lists them', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    await user.click(row('Ada Lovelace').getByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Ada Lovelace' }));
    const days = (dialog.getAllByRole('checkbox') as HTMLInputElement[]).filter((box) => box.checked);
    expect(days.map((box) => box.parentElement?.textContent)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
    ]);

    await user.clear(dialog.getByLabelText('Name'));
    await user.type(dialog.getByLabelText('Name'), 'Ada King');
    await dialog.findByRole('option', { name: 'General Dentistry' });
    await user.selectOptions(dialog.getByLabelText('Specialty'), 'General Dentistry');
    await user.upload(
      dialog.getByLabelText('New photo (optional)'),
      new File(['png'], 'ada.png', { type: 'image/png' }),
    );
    // Mon 09:00–13:00, Wed 12:00–18:00, nothing else.
    for (const day of ['Tuesday', 'Thursday', 'Friday']) await user.click(dialog.getByRole('checkbox', { name: day }));
    await user.selectOptions(dialog.getByLabelText('Monday ends at'), '13:00');
    await user.selectOptions(dialog.getByLabelText('Wednesday starts at'), '12:00');
    await user.selectOptions(dialog.getByLabelText('Wednesday ends at'), '18:00');
    const week = [
      { weekday: 1, start: '09:00', end: '13:00' },
      { weekday: 3, start: '12:00', end: '18:00' },
    ];
    answerList = () =>
      json(
        doctors.map((d) =>
          d._id === 'd1' ? { ...d, name: 'Ada King', specialty: 'General Dentistry', weeklyHours: week } : d,
        ),
      );
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    expect(await findToast('Ada King saved')).toBe('success');
    expect(changes).toEqual([
      {
        id: 'd1',
        body: {
          name: 'Ada King',
          specialty: 'General Dentistry',
          image: '/api/images/doctors/newphoto0001.png',
          weeklyHours: week,
          force: false,
        },
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(row('Ada King').getByText('Mon 09:00–13:00; Wed 12:00–18:00')).toBeTruthy());
  });

  it('checks the week before sending anything: a working day, and each end after its start', async () => {
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    await user.click(row('Grace Hopper').getByRole('button', { name: 'Edit Grace Hopper' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Grace Hopper' }));
    await user.selectOptions(dialog.getByLabelText('Wednesday ends at'), '08:00');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByRole('alert').textContent).toBe('Wednesday: the end must be later than the start');
    for (const name of ['Monday', 'Wednesday', 'Saturday']) await user.click(dialog.getByRole('checkbox', { name }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByRole('alert').textContent).toBe('Choose at least one working day');
    expect(changes).toEqual([]);
  });

  it('lists the bookings new hours would strand, changes nothing on Cancel, and keeps them on "Save anyway"', async () => {
    answerChange = (body) =>
      body.force
        ? json({ acknowledged: true, modifiedCount: 1, stranded: [STRANDED] })
        : json({ acknowledged: false, message: '1 upcoming booking would be left out', stranded: [STRANDED] }, 409);
    wouldStrand = [STRANDED];
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    await user.click(row('Ada Lovelace').getByRole('button', { name: 'Edit Ada Lovelace' }));
    let hoursDialog = within(screen.getByRole('dialog', { name: 'Edit Ada Lovelace' }));
    await user.selectOptions(hoursDialog.getByLabelText('Friday ends at'), '15:00');
    await user.click(hoursDialog.getByRole('button', { name: 'Save' }));

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    expect(conflict.getByText(/Teeth Whitening, Nov 27, 2026 at 04.00 PM - 05.00 PM/)).toBeTruthy();
    expect(conflict.getByText('Jamie Patient')).toBeTruthy();
    await user.click(conflict.getByRole('button', { name: 'Go back' }));
    expect(screen.queryByRole('dialog', { name: /would no longer fit/ })).toBeNull();
    // The page asked first (a dry run): nothing was sent to be refused.
    expect(changes).toEqual([]);
    expect(requests.filter((r) => r.startsWith('PUT'))).toEqual(['PUT /api/doctors/d1?dryRun=1']);

    hoursDialog = within(screen.getByRole('dialog', { name: 'Edit Ada Lovelace' }));
    await user.click(hoursDialog.getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' })).getByRole(
        'button',
        {
          name: 'Save anyway',
        },
      ),
    );

    expect(await findToast('Ada Lovelace saved')).toBe('success');
    expect(changes.map((c) => c.body.force)).toEqual([true]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const kept = within(screen.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/).parentElement!);
    expect(kept.getByText('Jamie Patient')).toBeTruthy();
    await user.click(kept.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/^Kept /)).toBeNull();
  });

  it('deletes a doctor with upcoming bookings only after "Delete anyway"', async () => {
    answerDelete = (id, force) => {
      if (!force)
        return json({ acknowledged: false, message: 'The doctor has upcoming bookings', stranded: [STRANDED] }, 409);
      doctors = doctors.filter((d) => d._id !== id);
      return json({ acknowledged: true, deletedCount: 1, stranded: [STRANDED] });
    };
    wouldStrand = [STRANDED];
    const user = await openManageDoctors();
    await screen.findByRole('table', { name: 'Doctors' });
    await user.click(row('Ada Lovelace').getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Ada Lovelace?' })).getByRole('button', { name: 'Delete' }),
    );

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toBeTruthy();
    await user.click(conflict.getByRole('button', { name: 'Delete anyway' }));

    expect(await findToast('Doctor Ada Lovelace deleted success')).toBe('success');
    expect(deletes()).toEqual(['DELETE /api/doctors/d1?dryRun=1', 'DELETE /api/doctors/d1?force=true']);
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Ada Lovelace' })).toBeNull());
    expect(screen.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/)).toBeTruthy();
  });
});
