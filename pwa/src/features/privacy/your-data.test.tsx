import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it, vi } from 'vitest';
import { fakeFirebase } from '../../testing/fake-firebase.ts';
import {
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../testing/test-utils.tsx';
import { YourData } from './your-data.tsx';

let calls: string[];

beforeEach(() => {
  calls = [];
  stubFetch(async (request) => {
    calls.push(describeRequest(request));
    if (request.method === 'DELETE')
      return json({ acknowledged: true, deletedCount: 1, cancelled: [], notRefunded: [] });
    if (request.url.endsWith('/export'))
      return new Response('{"fhir":{}}', { headers: { 'Content-Type': 'application/json' } });
    return json({ acknowledged: true });
  });
  fakeFirebase.signInAs('patient@clinic.test', 'Pat Patient');
  storeSession('patient@clinic.test');
});

it('downloads the patient’s data as a file', async () => {
  const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:data');
  const user = userEvent.setup();
  renderWithProviders(<YourData />);
  await user.click(screen.getByRole('button', { name: 'Download my data' }));
  await waitFor(() => expect(created).toHaveBeenCalledOnce());
  expect(calls).toEqual(['GET /api/users/me/export']);
});

it('deletes the account only after saying what is erased and what the clinic keeps, then signs out', async () => {
  const user = userEvent.setup();
  renderWithProviders(<YourData />);
  await user.click(screen.getByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
  expect(dialog.textContent).toContain('The law makes the clinic keep its payment records');
  expect(calls).toEqual([]);
  await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
  expect(await findToast('Your account is deleted')).toBe('success');
  expect(calls).toContain('DELETE /api/users/me');
  expect(localStorage.getItem('accessToken')).toBeNull();
});

it('names, before the deletion, the paid visits it cancels without a refund under the policy', async () => {
  const user = userEvent.setup();
  renderWithProviders(<YourData notRefunded={['Teeth Cleaning on Dec 3, 2026']} />);
  await user.click(screen.getByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
  expect(dialog.textContent).toContain(
    'Inside the clinic’s free-cancellation window, so cancelled without a refund: Teeth Cleaning on Dec 3, 2026.',
  );
});
