import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Recall, RecallList } from '../../../../../contract/recalls.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';

const ADMIN = 'admin@clinic.test';
let recalls: Recall[];
let writes: { line: string; body: unknown }[];

const recall = (id: string, fields: Partial<Recall>): Recall => ({
  _id: id,
  patientId: `p-${id}`,
  patientName: 'Jamie Patient',
  email: 'patient@clinic.test',
  phone: '+15550100',
  treatmentId: 'teeth-cleaning',
  treatment: 'Teeth Cleaning',
  dueDate: '2020-01-10',
  status: 'contacted',
  attempts: 2,
  lastContactAt: '2020-01-10T15:00:00.000Z',
  doNotContact: false,
  source: 'visit',
  bookingId: null,
  ...fields,
});

beforeEach(() => {
  recalls = [
    recall('r1', {}),
    recall('r2', { patientName: 'Ana Lee', dueDate: '2099-05-01', status: 'due', attempts: 0, lastContactAt: null }),
  ];
  writes = [];
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: true });
    if (url.pathname === '/api/recalls' && request.method === 'GET') {
      return json({ recalls, compliance: { booked: 3, of: 4, percent: 75 } } satisfies RecallList);
    }
    if (request.method !== 'GET') {
      writes.push({ line: `${request.method} ${url.pathname}`, body: JSON.parse(await request.text()) });
      if (url.pathname === '/api/recalls/import') {
        return json({
          acknowledged: true,
          added: 1,
          skipped: [{ line: 3, reason: 'no treatment is called "Polish"' }],
        });
      }
      recalls = recalls.filter((r) => r._id !== 'r1');
      return json({ acknowledged: true, recall: recall('r1', { status: 'closed' }) });
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs(ADMIN, 'Clinic Admin');
  storeSession(ADMIN);
});

describe('the recall screen', () => {
  it('lists overdue first with compliance, closes one, and imports a CSV saying which lines it skipped', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/recalls' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Recall' })).toBeTruthy();
    expect(
      await screen.findByText('Recall compliance: 75% (3 of 4 booked within 30 days of their due date).'),
    ).toBeTruthy();
    const cards = within(screen.getByRole('list', { name: 'Recalls' })).getAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Jamie Patient: Teeth Cleaning',
      'Ana Lee: Teeth Cleaning',
    ]);
    expect(within(cards[0] as HTMLElement).getByText(/^Due Jan 10, 2020, overdue by \d+ days$/)).toBeTruthy();
    expect(within(cards[1] as HTMLElement).getByText('None yet')).toBeTruthy();
    await user.click(within(cards[0] as HTMLElement).getByRole('button', { name: 'Close' }));
    expect(await findToast('Recall of Jamie Patient closed')).toBe('success');
    expect(writes).toEqual([{ line: 'PUT /api/recalls/r1', body: { status: 'closed' } }]);

    await user.type(
      screen.getByLabelText('CSV, one recall a line'),
      'email,treatment,dueDate{enter}a@b.c,Polish,2027-01-01',
    );
    await user.click(screen.getByRole('button', { name: 'Add recalls' }));
    expect(await findToast('1 recall added')).toBe('success');
    expect(screen.getByText('Line 3: no treatment is called "Polish"')).toBeTruthy();
  });
});
