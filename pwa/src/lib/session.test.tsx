import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../app/routes.tsx';
import { currentUser, fakeFirebase, signOutOfFirebase, watchAuthState } from '../testing/fake-firebase.ts';
import { accessTokenFor, json, renderWithProviders, storeSession, stubFetch } from '../testing/test-utils.tsx';
import { onSignOutClearPerUserData } from './per-user-data.ts';
import { storedAccessClaims } from './stored-access-token.ts';

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

/** Each POST /api/sessions/revoke the server saw: its bearer token, and the token the app still stored then. */
let revocations: { authorization: string | null; stored: string | null }[];

beforeEach(() => {
  revocations = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews') return json([]);
    if (url.pathname === '/api/team') return json([]);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
    if (url.pathname === '/api/sessions/revoke' && request.method === 'POST') {
      revocations.push({
        authorization: request.headers.get('Authorization'),
        stored: localStorage.getItem('accessToken'),
      });
      return json({ acknowledged: true });
    }
    return json({ message: 'Not found' }, 404);
  });
});

let unregister = () => {};
afterEach(() => unregister());

describe('session', () => {
  it('renews an access token made before the address was verified once Firebase says it is (the mail’s link)', async () => {
    const renewals: (string | null)[] = [];
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/jwt') {
        renewals.push(request.headers.get('Authorization'));
        return json({ accessToken: accessTokenFor('pat@clinic.test') });
      }
      if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
      return json([]);
    });
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test', accessTokenFor('pat@clinic.test', { verified: false }), { emailVerified: false });
    renderWithProviders(<AppRoutes />, { path: '/login' });

    // The API goes by the access token: without a new one, booking would be refused though the page offered it.
    await waitFor(() => expect(storedAccessClaims()?.verified).toBe(true));
    expect(renewals).toHaveLength(1);
  });

  it('shows Dashboard and Sign Out on the landing page from the stored hint, without loading Firebase', async () => {
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    renderWithProviders(<AppRoutes />);

    expect(await nav().findByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(nav().getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    expect(nav().queryByRole('link', { name: 'Login' })).toBeNull();
    expect(watchAuthState).not.toHaveBeenCalled();
    expect(currentUser).not.toHaveBeenCalled();
  });

  it('signs out from the navigation bar: token, hint and per-user caches cleared, Firebase signed out, home', async () => {
    const clearSavedBookings = vi.fn();
    unregister = onSignOutClearPerUserData(clearSavedBookings);
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    const cache = new Map<string, unknown>();
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard', cache });
    await screen.findByRole('heading', { level: 1, name: 'My Appointments' });
    const adminKey = '/users/admin/pat%40clinic.test';
    await waitFor(() =>
      expect((cache.get(adminKey) as { data?: unknown } | undefined)?.data).toEqual({ isAdmin: false }),
    );

    await user.click(nav().getByRole('button', { name: 'Sign Out' }));

    await waitFor(() => expect(signOutOfFirebase).toHaveBeenCalledOnce());
    expect(window.location.pathname).toBe('/');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('session')).toBeNull();
    expect((cache.get(adminKey) as { data?: unknown } | undefined)?.data).toBeUndefined();
    expect(clearSavedBookings).toHaveBeenCalledExactlyOnceWith({ email: 'pat@clinic.test' });
    expect(fakeFirebase.currentUser).toBeNull();
    expect(await nav().findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(nav().queryByRole('link', { name: 'Dashboard' })).toBeNull();
    // The server ended the access token first, while the app still held it.
    expect(revocations).toEqual([{ authorization: 'Bearer access:pat@clinic.test', stored: 'access:pat@clinic.test' }]);
  });

  it('signs out offline too: the server cannot be told, everything here is cleared all the same', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: 'My Appointments' });
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));

    await user.click(nav().getByRole('button', { name: 'Sign Out' }));

    await waitFor(() => expect(signOutOfFirebase).toHaveBeenCalledOnce());
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('session')).toBeNull();
    expect(await nav().findByRole('link', { name: 'Login' })).toBeTruthy();
  });

  it('drops a stale hint and access token when Firebase says nobody is signed in', async () => {
    storeSession('gone@clinic.test');
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });

    await screen.findByRole('heading', { level: 1, name: 'Login' });
    expect(localStorage.getItem('session')).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(nav().getByRole('link', { name: 'Login' })).toBeTruthy();
  });
});
