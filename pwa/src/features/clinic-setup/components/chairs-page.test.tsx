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
import type { Chair } from '../api/chairs.ts';

const STRANDED = {
  _id: 'b7',
  treatment: 'Teeth Cleaning',
  appointmentDate: 'Dec 2, 2026',
  date: '2026-12-02',
  slot: '09.00 AM - 09.30 AM',
  patientName: 'Jamie Patient',
  email: 'patient@clinic.test',
  phone: '+1 555 0100',
  doctor: null,
};

let chairs: Chair[];
let writes: { line: string; body: unknown }[];
let hasBookings: boolean;

beforeEach(() => {
  chairs = [
    { _id: 'ch1', name: 'Chair 1' },
    { _id: 'ch2', name: 'Chair 2' },
  ];
  writes = [];
  hasBookings = false;
  stubFetch(async (request) => {
    const url = new URL(request.url);
    const line = describeRequest(request);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (line === 'GET /api/chairs') return json(chairs);
    if (line === 'POST /api/chairs') {
      const body = (await request.json()) as { name: string };
      writes.push({ line, body });
      if (chairs.some((c) => c.name === body.name)) {
        return json({ acknowledged: false, message: 'A chair with this name already exists' }, 409);
      }
      chairs.push({ _id: 'ch9', name: body.name });
      return json({ acknowledged: true, insertedId: 'ch9' }, 201);
    }
    if (request.method === 'PUT') {
      const body = (await request.json()) as { name: string };
      writes.push({ line, body });
      if (chairs.some((c) => c.name === body.name)) {
        return json({ acknowledged: false, message: 'A chair with this name already exists' }, 409);
      }
      const id = url.pathname.split('/').pop();
      chairs = chairs.map((c) => (c._id === id ? { ...c, name: body.name } : c));
      return json({ acknowledged: true, modifiedCount: 1, message: `Renamed to ${body.name}` });
    }
    if (request.method === 'DELETE' && url.searchParams.get('dryRun') === '1') {
      return dryRunAnswer(hasBookings ? [STRANDED] : []);
    }
    if (request.method === 'DELETE') {
      writes.push({ line, body: undefined });
      if (hasBookings && url.searchParams.get('force') !== 'true') {
        return json({ acknowledged: false, message: 'This chair has upcoming bookings', stranded: [STRANDED] }, 409);
      }
      const id = url.pathname.split('/').pop();
      chairs = chairs.filter((c) => c._id !== id);
      return json({ acknowledged: true, deletedCount: 1, stranded: hasBookings ? [STRANDED] : [] });
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openChairs() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/chairs' });
  await screen.findByRole('heading', { level: 1, name: 'Chairs' });
  await screen.findByRole('table', { name: 'Chairs' });
  return user;
}

const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);
const form = () => within(screen.getByRole('form', { name: 'Add a chair' }));

describe('Chairs page', () => {
  it('lists the chairs', async () => {
    await openChairs();
    const [, ...body] = within(screen.getByRole('table', { name: 'Chairs' })).getAllByRole('row');
    expect(body.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['Chair 1', 'Chair 2']);
  });

  it('adds a chair, trimmed, and empties the form', async () => {
    const user = await openChairs();
    await user.type(form().getByLabelText('Name'), '  Surgery room ');
    await user.click(form().getByRole('button', { name: 'Add chair' }));
    expect(await findToast('Surgery room added')).toBe('success');
    expect(writes).toEqual([{ line: 'POST /api/chairs', body: { name: 'Surgery room' } }]);
    await waitFor(() => expect(row('Surgery room')).toBeTruthy());
    expect((form().getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('asks for a name and shows the server’s message for one already taken', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = await openChairs();
    await user.click(form().getByRole('button', { name: 'Add chair' }));
    expect(await form().findByText('name is required')).toBeTruthy();
    expect(writes).toEqual([]);
    await user.type(form().getByLabelText('Name'), 'Chair 1');
    await user.click(form().getByRole('button', { name: 'Add chair' }));
    expect(await findToast('A chair with this name already exists')).toBe('error');
  });

  it('renames a chair, and keeps the dialog with the server’s message for a name taken', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = await openChairs();
    await user.click(row('Chair 2').getByRole('button', { name: 'Rename Chair 2' }));
    let dialog = within(screen.getByRole('dialog', { name: 'Rename Chair 2' }));
    await user.clear(dialog.getByLabelText('New name'));
    await user.type(dialog.getByLabelText('New name'), 'Chair 1');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await findToast('A chair with this name already exists')).toBe('error');
    dialog = within(screen.getByRole('dialog', { name: 'Rename Chair 2' }));
    await user.clear(dialog.getByLabelText('New name'));
    await user.type(dialog.getByLabelText('New name'), 'Window chair');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await findToast('Renamed to Window chair')).toBe('success');
    expect(writes.map((w) => [w.line, w.body])).toEqual([
      ['PUT /api/chairs/ch2', { name: 'Chair 1' }],
      ['PUT /api/chairs/ch2', { name: 'Window chair' }],
    ]);
    expect(await screen.findByRole('cell', { name: 'Window chair' })).toBeTruthy();
  });

  it('deletes a chair after a confirmation', async () => {
    const user = await openChairs();
    await user.click(row('Chair 2').getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Chair 2?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await findToast('Chair 2 deleted')).toBe('success');
    expect(writes.map((w) => w.line)).toEqual(['DELETE /api/chairs/ch2']);
    await waitFor(() => expect(screen.queryByText('Chair 2')).toBeNull());
  });

  it('lists the bookings of a chair before deleting it anyway, and keeps them', async () => {
    hasBookings = true;
    const user = await openChairs();
    await user.click(row('Chair 1').getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Chair 1?' })).getByRole('button', { name: 'Delete' }),
    );

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    expect(conflict.getByText(/No doctor · \+1 555 0100/)).toBeTruthy();
    await user.click(conflict.getByRole('button', { name: 'Delete anyway' }));

    expect(await findToast('Chair 1 deleted')).toBe('success');
    // Asked first (a dry run, not a write): nothing was sent to be refused.
    expect(writes.map((w) => w.line)).toEqual(['DELETE /api/chairs/ch1?force=true']);
    expect(screen.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/)).toBeTruthy();
  });

  it('says patients cannot book while there is no chair', async () => {
    chairs = [];
    renderWithProviders(<AppRoutes />, { path: '/dashboard/chairs' });
    expect(await screen.findByText('No chairs yet: patients cannot book until there is one.')).toBeTruthy();
  });
});
