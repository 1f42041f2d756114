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

let hours: number;
let puts: unknown[];
let answerPut: (body: { freeCancellationHours: number }) => Response;

beforeEach(() => {
  hours = 24;
  puts = [];
  answerPut = (body) => {
    hours = body.freeCancellationHours;
    return json({ acknowledged: true, message: 'Cancellation policy saved', freeCancellationHours: hours });
  };
  stubFetch(async (request) => {
    const call = describeRequest(request);
    if (call === 'GET /api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (call === 'GET /api/clinic/policy') return json({ freeCancellationHours: hours });
    if (call === 'PUT /api/clinic/policy') {
      const body = (await request.json()) as { freeCancellationHours: number };
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
  return { user, field };
}

describe('Clinic settings: the cancellation policy', () => {
  it('shows the current window and saves a new one', async () => {
    const { user, field } = await openSettings();
    expect(field.value).toBe('24');
    await user.clear(field);
    await user.type(field, '48');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 48 }]);
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
    expect(puts).toEqual([{ freeCancellationHours: 1000 }]);
  });
});
