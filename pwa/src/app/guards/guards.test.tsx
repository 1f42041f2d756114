import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFirebase, watchAuthState } from '../../testing/fake-firebase.ts';
import { accessTokenFor, json, renderWithProviders, storeSession, stubFetch } from '../../testing/test-utils.tsx';
import { AppRoutes } from '../routes.tsx';

let adminAnswer: () => Response | Promise<Response>;
let requested: string[];

beforeEach(() => {
  adminAnswer = () => json({ isAdmin: false });
  requested = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    requested.push(url.pathname);
    if (url.pathname.startsWith('/api/users/admin/')) return adminAnswer();
    if (url.pathname === '/api/users') return json([]);
    return json({ message: 'Not found' }, 404);
  });
});

const here = () => `${window.location.pathname}${window.location.search}`;

describe('signed-in guard', () => {
  it.each([
    ['/appointment', '/login?from=%2Fappointment'],
    ['/review', '/login?from=%2Freview'],
    ['/dashboard', '/login?from=%2Fdashboard'],
    ['/dashboard/payment/b1?x=1', '/login?from=%2Fdashboard%2Fpayment%2Fb1%3Fx%3D1'],
  ])('sends a signed-out visitor of %s to %s, replacing the history entry', async (path, login) => {
    const pushState = vi.spyOn(history, 'pushState');
    const replaceState = vi.spyOn(history, 'replaceState');
    renderWithProviders(<AppRoutes />, { path });

    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(here()).toBe(login);
    expect(replaceState).toHaveBeenCalledWith(null, '', login);
    expect(pushState).not.toHaveBeenCalled();
  });

  it('shows a progress bar while the auth state loads, then the page for a signed-in user', async () => {
    const release = fakeFirebase.holdAuthState();
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    renderWithProviders(<AppRoutes />, { path: '/appointment' });

    expect(await screen.findByRole('progressbar', { name: 'Loading your account' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Appointment' })).toBeNull();

    await act(async () => release());

    expect(await screen.findByRole('heading', { level: 1, name: 'Appointment' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(here()).toBe('/appointment');
  });

  it('opens the page from the saved session (the hint and an unexpired access token of that email) without Firebase', async () => {
    fakeFirebase.holdAuthState(); // Firebase would never answer
    storeSession('pat@clinic.test', accessTokenFor('pat@clinic.test'));
    renderWithProviders(<AppRoutes />, { path: '/appointment' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Appointment' })).toBeTruthy();
    expect(here()).toBe('/appointment');
    expect(watchAuthState).not.toHaveBeenCalled();
  });

  it.each([
    ['expired', accessTokenFor('pat@clinic.test', { expiresInSeconds: -60 })],
    ['of another email', accessTokenFor('sam@clinic.test')],
  ])('waits for Firebase when the saved access token is %s', async (_, token) => {
    storeSession('pat@clinic.test', token);
    fakeFirebase.signInAs('pat@clinic.test');
    const release = fakeFirebase.holdAuthState();
    renderWithProviders(<AppRoutes />, { path: '/appointment' });

    expect(await screen.findByRole('progressbar', { name: 'Loading your account' })).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByRole('heading', { level: 1, name: 'Appointment' })).toBeTruthy();
    expect(watchAuthState).toHaveBeenCalled();
  });

  it('sends a visitor with no saved session to /login without waiting for Firebase', async () => {
    fakeFirebase.holdAuthState(); // Firebase would never answer
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(here()).toBe('/login?from=%2Fdashboard');
  });

  it('ends the session when the Worker refuses the saved token and Firebase knows nobody: to /login', async () => {
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
      return json({ message: 'Sign in again' }, 401);
    });
    storeSession('pat@clinic.test', accessTokenFor('pat@clinic.test')); // revoked on the server, say
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });

    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(here()).toBe('/login?from=%2Fdashboard');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('does not trust the stored hint alone: it waits for Firebase', async () => {
    storeSession('pat@clinic.test'); // hint says signed in, Firebase says nobody
    const release = fakeFirebase.holdAuthState();
    renderWithProviders(<AppRoutes />, { path: '/appointment' });
    expect(await screen.findByRole('progressbar', { name: 'Loading your account' })).toBeTruthy();
    await act(async () => release());
    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(here()).toBe('/login?from=%2Fappointment');
  });
});

describe('admin guard', () => {
  it('shows a spinner while the admin check is pending', async () => {
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    adminAnswer = () => new Promise<Response>(() => {});
    renderWithProviders(<AppRoutes />, { path: '/dashboard/all-users' });

    const status = await screen.findByText('Checking your access');
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'All Users' })).toBeNull();
    expect(here()).toBe('/dashboard/all-users');
  });

  it.each(['/dashboard/all-users', '/dashboard/add-doctors', '/dashboard/manage-doctors', '/dashboard/refunds'])(
    'sends a patient away from %s to /login with the original location',
    async (path) => {
      fakeFirebase.signInAs('pat@clinic.test');
      storeSession('pat@clinic.test');
      renderWithProviders(<AppRoutes />, { path });
      await screen.findByRole('heading', { level: 1, name: 'Login' });
      expect(here()).toBe(`/login?from=${encodeURIComponent(path)}`);
    },
  );

  it.each([
    ['admin', 'opens the page'],
    ['patient', 'sends them to /login'],
  ])('with no network, on the role the stored token names (%s): %s', async (role) => {
    fakeFirebase.signInAs('desk@clinic.test');
    storeSession('desk@clinic.test', accessTokenFor('desk@clinic.test', { role }));
    adminAnswer = () => {
      throw new TypeError('Failed to fetch');
    };
    renderWithProviders(<AppRoutes />, { path: '/dashboard/all-users' });
    if (role === 'admin') {
      await screen.findByRole('heading', { level: 1, name: 'All Users' });
      expect(here()).toBe('/dashboard/all-users');
    } else {
      await screen.findByRole('heading', { level: 1, name: 'Login' });
    }
  });

  it('tells the patient it sent to /login that the page is for clinic staff', async () => {
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    renderWithProviders(<AppRoutes />, { path: '/dashboard/all-users' });
    await screen.findByRole('heading', { level: 1, name: 'Login' });
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('status').textContent).toBe('That page is for clinic staff');
    expect(here()).toBe('/login?from=%2Fdashboard%2Fall-users');
  });

  it('sends a signed-out visitor to /login without asking the server, nor saying it is for staff', async () => {
    renderWithProviders(<AppRoutes />, { path: '/dashboard/manage-doctors' });
    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(screen.queryByText('That page is for clinic staff')).toBeNull();
    expect(here()).toBe('/login?from=%2Fdashboard%2Fmanage-doctors');
    expect(requested.filter((path) => path.startsWith('/api/users'))).toEqual([]);
  });

  it('shows the page to an admin', async () => {
    fakeFirebase.signInAs('admin@clinic.test');
    storeSession('admin@clinic.test');
    adminAnswer = () => json({ isAdmin: true });
    renderWithProviders(<AppRoutes />, { path: '/dashboard/manage-doctors' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Manage Doctors' })).toBeTruthy();
    await waitFor(() => expect(here()).toBe('/dashboard/manage-doctors'));
  });
});
