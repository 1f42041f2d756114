import { screen, within } from '@testing-library/react';
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
import type { SpecialtyInUse } from '../api/specialties.ts';

let specialties: SpecialtyInUse[];
let writes: string[];

beforeEach(() => {
  specialties = [
    { _id: 'general-dentistry', name: 'General Dentistry', doctors: 1, treatments: 4 },
    { _id: 'implants', name: 'Implants', doctors: 0, treatments: 0 },
  ];
  writes = [];
  stubFetch(async (request) => {
    const url = new URL(request.url);
    const line = describeRequest(request);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (line === 'GET /api/specialties') return json(specialties);
    if (line === 'GET /api/appointmentSpecialty') return json(specialties.map(({ _id, name }) => ({ _id, name })));
    const id = url.pathname.split('/').pop() ?? '';
    if (line === 'POST /api/specialties') {
      const { name } = (await request.json()) as { name: string };
      writes.push(`${line} ${name}`);
      if (specialties.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
        return json({ acknowledged: false, message: 'A specialty with this name already exists' }, 409);
      }
      specialties.push({ _id: 'periodontics', name, doctors: 0, treatments: 0 });
      return json({ acknowledged: true, insertedId: 'periodontics' }, 201);
    }
    if (request.method === 'PUT') {
      const { name } = (await request.json()) as { name: string };
      writes.push(`${line} ${name}`);
      specialties = specialties.map((s) => (s._id === id ? { ...s, name } : s));
      return json({ acknowledged: true, modifiedCount: 1, message: `Renamed to ${name}` });
    }
    if (request.method === 'DELETE') {
      writes.push(line);
      const specialty = specialties.find((s) => s._id === id);
      if (specialty && specialty.doctors + specialty.treatments > 0) {
        return json(
          {
            acknowledged: false,
            message: `${specialty.name} is the specialty of 1 doctor and 4 treatments; give them another specialty before deleting it`,
          },
          409,
        );
      }
      specialties = specialties.filter((s) => s._id !== id);
      return json({ acknowledged: true, deletedCount: 1 });
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openSpecialties() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/specialties' });
  await screen.findByRole('heading', { level: 1, name: 'Specialties' });
  await screen.findByRole('table', { name: 'Specialties' });
  return user;
}

const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);

describe('Specialties page', () => {
  it('lists each specialty with who has it', async () => {
    await openSpecialties();
    expect(row('General Dentistry').getByText('1 doctor, 4 treatments')).toBeTruthy();
    expect(row('Implants').getByText('Nobody yet')).toBeTruthy();
  });

  it('adds one, and shows the server’s refusal of a name taken', async () => {
    const user = await openSpecialties();
    const form = within(screen.getByRole('form', { name: 'Add a specialty' }));
    await user.type(form.getByLabelText('Name'), 'Periodontics');
    await user.click(form.getByRole('button', { name: 'Add specialty' }));
    expect(await findToast('Periodontics added')).toBe('success');
    expect(await screen.findByRole('button', { name: 'Rename Periodontics' })).toBeTruthy();
    await user.type(form.getByLabelText('Name'), 'implants');
    await user.click(form.getByRole('button', { name: 'Add specialty' }));
    expect(await findToast('A specialty with this name already exists')).toBe('error');
    expect(writes).toEqual(['POST /api/specialties Periodontics', 'POST /api/specialties implants']);
  });

  it('renames one in a dialog, by keyboard', async () => {
    const user = await openSpecialties();
    await user.click(row('Implants').getByRole('button', { name: 'Rename Implants' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename Implants' }));
    const field = dialog.getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Oral Surgery{Enter}');
    expect(await findToast('Renamed to Oral Surgery')).toBe('success');
    expect(await screen.findByRole('button', { name: 'Rename Oral Surgery' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes an unused one after asking; one in use is refused with who has it', async () => {
    const user = await openSpecialties();
    await user.click(row('General Dentistry').getByRole('button', { name: 'Delete General Dentistry' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(
      await findToast(
        'General Dentistry is the specialty of 1 doctor and 4 treatments; give them another specialty before deleting it',
      ),
    ).toBe('error');
    await user.click(row('Implants').getByRole('button', { name: 'Delete Implants' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await findToast('Implants deleted')).toBe('success');
    expect(writes).toEqual(['DELETE /api/specialties/general-dentistry', 'DELETE /api/specialties/implants']);
  });
});
