import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/http.ts';
import { json, renderWithProviders, stubFetch } from '../testing/test-utils.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';

function FailingPage({ error }: { error: unknown }): never {
  throw error;
}

describe('error screen', () => {
  it('shows the spec text, the message and the status code, and signs out to /', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => json({ acknowledged: true })); // sign-out ends the session on the server first
    localStorage.setItem('accessToken', 'token-123');
    const user = userEvent.setup();
    renderWithProviders(
      <PublicLayout>
        <FailingPage error={new ApiError(403, 'forbidden access')} />
      </PublicLayout>,
      { path: '/dashboard' },
    );

    const alert = screen.getByRole('alert');
    expect(screen.getByRole('heading', { name: 'Something went wrong !!!' })).toBeTruthy();
    expect(alert.textContent).toContain('forbidden access');
    expect(alert.textContent).toContain('403');
    expect(alert.textContent).toContain('Sign out and log back in');
    // the layout stays around the error screen
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(localStorage.getItem('accessToken')).toBeNull());
    expect(window.location.pathname).toBe('/');
  });

  it('prefers the status text of an error when it has one', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <PublicLayout>
        <FailingPage error={{ status: 404, statusText: 'Not Found', message: 'ignored' }} />
      </PublicLayout>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Not Found');
    expect(alert.textContent).toContain('404');
    expect(alert.textContent).not.toContain('ignored');
  });
});
