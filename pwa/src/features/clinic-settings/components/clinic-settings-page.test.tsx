import { screen, waitFor } from '@testing-library/react';
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

type Policy = { freeCancellationHours: number; rescheduleCutoffHours: number };
let policy: Policy;
let puts: unknown[];
let answerPut: (body: Policy) => Response;

beforeEach(() => {
  policy = { freeCancellationHours: 24, rescheduleCutoffHours: 12 };
  puts = [];
  answerPut = (body) => {
    policy = body;
    return json({ acknowledged: true, message: 'Cancellation policy saved', ...policy });
  };
  stubFetch(async (request) => {
    const call = describeRequest(request);
    if (call === 'GET /api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (call === 'GET /api/clinic/policy') return json(policy);
    if (call === 'PUT /api/clinic/policy') {
      const body = (await request.json()) as Policy;
      puts.push(body);
      return answerPut(body);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openSettings() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/settings' });
  await screen.findByRole('heading', { level: 1, name: 'Clinic settings' }, { timeout: 5000 });
  const field = await screen.findByLabelText<HTMLInputElement>(
    'Free cancellation until (hours before the appointment)',
  );
  const cutoff = screen.getByLabelText<HTMLInputElement>('Online rescheduling until (hours before the appointment)');
  return { user, field, cutoff };
}

describe('Clinic settings: the cancellation policy', () => {
  it('shows the current window and saves a new one', async () => {
    const { user, field, cutoff } = await openSettings();
    expect(field.value).toBe('24');
    expect(cutoff.value).toBe('12');
    await user.clear(field);
    await user.type(field, '48');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 48, rescheduleCutoffHours: 12 }]);
  });

  it('saves the reschedule cutoff beside the cancellation window', async () => {
    const { user, cutoff } = await openSettings();
    await user.clear(cutoff);
    await user.type(cutoff, '6');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 24, rescheduleCutoffHours: 6 }]);
    expect(cutoff.value).toBe('6');
  });

  it('says what is wrong before asking the server, and shows the server’s refusal', async () => {
    const { user, field } = await openSettings();
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a whole number of hours, 0 or more');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toEqual([]);

    answerPut = () =>
      json({ acknowledged: false, message: 'freeCancellationHours must be at most 720 (30 days)' }, 400);
    await user.type(field, '1000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('freeCancellationHours must be at most 720 (30 days)'),
    );
    expect(puts).toEqual([{ freeCancellationHours: 1000, rescheduleCutoffHours: 12 }]);
  });
});
