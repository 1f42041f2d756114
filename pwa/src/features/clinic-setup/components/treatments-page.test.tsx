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
import type { Treatment } from '../api/treatments.ts';

const SPECIALTIES = [
  { _id: 's1', name: 'General Dentistry' },
  { _id: 's2', name: 'Endodontics' },
];

let treatments: Treatment[];
let requests: string[];
let writes: { line: string; body: unknown }[];
let answerDelete: (id: string) => Response;

beforeEach(() => {
  treatments = [
    {
      _id: 't1',
      name: 'Dental Check-up',
      price: 60,
      durationMinutes: 30,
      specialty: 'General Dentistry',
      active: true,
      recallMonths: 6,
      payment: 'full',
      depositPercent: null,
    },
    {
      _id: 't2',
      name: 'Root Canal',
      price: 450,
      durationMinutes: 90,
      specialty: 'Endodontics',
      active: false,
      recallMonths: null,
      payment: 'full',
      depositPercent: null,
    },
  ];
  requests = [];
  writes = [];
  answerDelete = (id) => {
    treatments = treatments.filter((t) => t._id !== id);
    return json({ acknowledged: true, deletedCount: 1, deactivated: false, message: 'Treatment deleted' });
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    const line = describeRequest(request);
    requests.push(line);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/appointmentSpecialty') return json(SPECIALTIES);
    if (url.pathname === '/api/treatments' && request.method === 'GET') return json(treatments);
    if (url.pathname.startsWith('/api/treatments') && request.method !== 'GET') {
      const body = request.method === 'DELETE' ? undefined : await request.json();
      writes.push({ line, body });
      const id = decodeURIComponent(url.pathname.split('/')[3] ?? '');
      if (request.method === 'POST') {
        treatments.push({ _id: 't9', ...(body as Omit<Treatment, '_id'>) });
        return json({ acknowledged: true, insertedId: 't9' }, 201);
      }
      if (request.method === 'PUT') {
        treatments = treatments.map((t) => (t._id === id ? { ...t, ...(body as Partial<Treatment>) } : t));
        return json({ acknowledged: true, modifiedCount: 1, message: 'Treatment updated' });
      }
      return answerDelete(id);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openTreatments() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/treatments' });
  await screen.findByRole('heading', { level: 1, name: 'Treatments' });
  await screen.findByRole('table', { name: 'Treatments' });
  return user;
}

const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);

describe('Treatments page', () => {
  it('lists every treatment, active or not, with its specialty, length, price and status', async () => {
    await openTreatments();
    const table = screen.getByRole('table', { name: 'Treatments' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Name', 'Specialty', 'Length', 'Price', 'Recall', 'Status', 'Actions']);
    const [, ...body] = within(table).getAllByRole('row');
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(0, 6),
      ),
    ).toEqual([
      ['Dental Check-up', 'General Dentistry', '30 min', '$60', '6 months', 'Active'],
      ['Root Canal', 'Endodontics', '90 min', '$450', '—', 'Inactive'],
    ]);
    expect(row('Dental Check-up').getByRole('button', { name: 'Deactivate' })).toBeTruthy();
    expect(row('Root Canal').getByRole('button', { name: 'Activate' })).toBeTruthy();
  });

  it('validates a new treatment with the server’s own schema, in its words, and sends nothing until it is right', async () => {
    const user = await openTreatments();
    await user.click(screen.getByRole('button', { name: 'Add treatment' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Add treatment' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    for (const message of ['name is required', 'price is required', 'specialty is required']) {
      expect(await dialog.findByText(message)).toBeTruthy();
    }
    for (const [typed, message] of [
      ['-5', 'price must not be negative'],
      ['ten', 'price must be a number of dollars'],
      ['   ', 'price is required'],
      ['12.345', 'price must have at most two decimals'],
      ['100001', 'price must be at most 100000'],
    ] as const) {
      await user.clear(dialog.getByLabelText('Price ($)'));
      await user.type(dialog.getByLabelText('Price ($)'), typed);
      await user.click(dialog.getByRole('button', { name: 'Save' }));
      expect(await dialog.findByText(message)).toBeTruthy();
    }
    expect(writes).toEqual([]);
  });

  it('adds a treatment with its length and specialty, toasts and lists it', async () => {
    const user = await openTreatments();
    await user.click(screen.getByRole('button', { name: 'Add treatment' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Add treatment' }));
    expect((dialog.getByLabelText('Active: patients can book it') as HTMLInputElement).checked).toBe(true);
    expect([...(dialog.getByLabelText('Length') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${(i + 1) * 15} min`),
    );
    await user.type(dialog.getByLabelText('Name'), '  Deep Cleaning ');
    await user.type(dialog.getByLabelText('Price ($)'), '$99.50');
    await user.selectOptions(dialog.getByLabelText('Length'), '75 min');
    await user.selectOptions(dialog.getByLabelText('Specialty'), 'General Dentistry');
    expect((dialog.getByLabelText('Recall') as HTMLSelectElement).value).toBe('');
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    expect(await findToast('Deep Cleaning added')).toBe('success');
    expect(writes).toEqual([
      {
        line: 'POST /api/treatments',
        body: {
          name: 'Deep Cleaning',
          price: 99.5,
          durationMinutes: 75,
          specialty: 'General Dentistry',
          active: true,
          recallMonths: null,
          payment: 'full',
          depositPercent: null,
        },
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(row('Deep Cleaning').getByText('75 min')).toBeTruthy());
  });

  it('sets a deposit, asking for its share, and lists it', async () => {
    const user = await openTreatments();
    await user.click(row('Dental Check-up').getByRole('button', { name: 'Edit' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Dental Check-up' }));
    expect(dialog.queryByLabelText('Deposit (% of the price)')).toBeNull();
    await user.selectOptions(dialog.getByLabelText('Payment'), 'Deposit online, the rest at the desk');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('depositPercent must be a number of percent')).toBeTruthy();
    await user.type(dialog.getByLabelText('Deposit (% of the price)'), '100');
    expect(await dialog.findByText('depositPercent must be 1 to 99')).toBeTruthy();
    await user.clear(dialog.getByLabelText('Deposit (% of the price)'));
    await user.type(dialog.getByLabelText('Deposit (% of the price)'), '25');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await findToast('Dental Check-up saved')).toBe('success');
    expect(writes.at(-1)?.body).toMatchObject({ payment: 'deposit', depositPercent: 25 });
    await waitFor(() => expect(row('Dental Check-up').getByText('$60, 25% deposit')).toBeTruthy());
  });

  it('edits the price, length and specialty of a treatment', async () => {
    const user = await openTreatments();
    await user.click(row('Dental Check-up').getByRole('button', { name: 'Edit' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Dental Check-up' }));
    expect((dialog.getByLabelText('Price ($)') as HTMLInputElement).value).toBe('60');
    expect((dialog.getByLabelText('Length') as HTMLSelectElement).value).toBe('30');
    expect((dialog.getByLabelText('Specialty') as HTMLSelectElement).value).toBe('General Dentistry');
    await user.clear(dialog.getByLabelText('Price ($)'));
    await user.type(dialog.getByLabelText('Price ($)'), '65');
    await user.selectOptions(dialog.getByLabelText('Length'), '45 min');
    await user.selectOptions(dialog.getByLabelText('Specialty'), 'Endodontics');
    expect((dialog.getByLabelText('Recall') as HTMLSelectElement).value).toBe('6');
    await user.selectOptions(dialog.getByLabelText('Recall'), 'Every 3 months');
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    expect(await findToast('Dental Check-up saved')).toBe('success');
    expect(writes).toEqual([
      {
        line: 'PUT /api/treatments/t1',
        body: {
          name: 'Dental Check-up',
          price: 65,
          durationMinutes: 45,
          specialty: 'Endodontics',
          active: true,
          recallMonths: 3,
          payment: 'full',
          depositPercent: null,
        },
      },
    ]);
    await waitFor(() => expect(row('Dental Check-up').getByText('45 min')).toBeTruthy());
    expect(row('Dental Check-up').getByText('$65')).toBeTruthy();
  });

  it('deactivates and activates a treatment at once', async () => {
    const user = await openTreatments();
    await user.click(row('Dental Check-up').getByRole('button', { name: 'Deactivate' }));
    expect(await findToast('Dental Check-up deactivated')).toBe('success');
    await waitFor(() => expect(row('Dental Check-up').getByText('Inactive')).toBeTruthy());
    await user.click(row('Root Canal').getByRole('button', { name: 'Activate' }));
    expect(await findToast('Root Canal activated')).toBe('success');
    expect(writes).toEqual([
      { line: 'PUT /api/treatments/t1', body: { active: false } },
      { line: 'PUT /api/treatments/t2', body: { active: true } },
    ]);
  });

  it('says so when a treatment with upcoming bookings is deactivated instead of deleted', async () => {
    const instead = 'Root Canal has upcoming bookings, so it was deactivated instead of deleted; its bookings stay';
    answerDelete = () => json({ acknowledged: true, deletedCount: 0, deactivated: true, message: instead });
    const user = await openTreatments();
    await user.click(row('Root Canal').getByRole('button', { name: 'Delete' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete Root Canal?' }));
    expect(dialog.getByText(/If it has upcoming bookings, it is deactivated instead/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(await findToast(instead)).toBe('success');
    expect(writes.map((w) => w.line)).toEqual(['DELETE /api/treatments/t2']);
    expect(row('Root Canal')).toBeTruthy();
  });

  it('deletes a treatment without bookings', async () => {
    const user = await openTreatments();
    await user.click(row('Dental Check-up').getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Dental Check-up?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await findToast('Treatment deleted')).toBe('success');
    await waitFor(() => expect(screen.queryByText('Dental Check-up')).toBeNull());
  });

  it("shows the server's message when a name is taken, and keeps the dialog open", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = await openTreatments();
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/appointmentSpecialty') return json(SPECIALTIES);
      if (request.method === 'POST')
        return json({ acknowledged: false, message: 'A treatment with this name already exists' }, 409);
      return json(treatments);
    });
    await user.click(screen.getByRole('button', { name: 'Add treatment' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Add treatment' }));
    await user.type(dialog.getByLabelText('Name'), 'Root Canal');
    await user.type(dialog.getByLabelText('Price ($)'), '10');
    await user.selectOptions(dialog.getByLabelText('Specialty'), 'Endodontics');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await findToast('A treatment with this name already exists')).toBe('error');
    expect(screen.getByRole('dialog', { name: 'Add treatment' })).toBeTruthy();
  });

  it('says on the page that the treatments could not be loaded, and can try again', async () => {
    let fail = true;
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
      return fail ? json({ message: 'The clinic database is unavailable' }, 503) : json(treatments);
    });
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/treatments' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The treatments could not be loaded: The clinic database is unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Treatments' })).toBeTruthy();
  });
});
