import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../app/routes.tsx';
import { fakeFirebase } from '../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../testing/test-utils.tsx';

let online: boolean;

beforeEach(() => {
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
    return json([]);
  });
});

const banner = () => screen.queryByText('You are offline', { exact: true });

function setOnline(value: boolean) {
  online = value;
  act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
}

describe('offline banner', () => {
  it('says "You are offline" on the public pages while the browser is offline, as a status', async () => {
    renderWithProviders(<AppRoutes />, { path: '/' });
    expect(banner()).toBeNull();

    setOnline(false);
    expect(banner()?.closest('[role="status"]')).toBeTruthy();

    setOnline(true);
    expect(banner()).toBeNull();
  });

  it('shows in the dashboard too, once its requests fail on the network', async () => {
    fakeFirebase.signInAs('pat@clinic.test');
    storeSession('pat@clinic.test');
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByText('You are offline and no saved appointments are on this device.');

    expect(banner()?.closest('[role="status"]')).toBeTruthy();
  });

  it('hints offline while the browser says so before anything answered, and goes once the server answers', async () => {
    online = false;
    const answer = Promise.withResolvers<Response>();
    stubFetch(() => answer.promise);
    renderWithProviders(<AppRoutes />, { path: '/' });
    expect(banner()?.closest('[role="status"]')).toBeTruthy();

    await act(async () => answer.resolve(json([])));
    await waitFor(() => expect(banner()).toBeNull());
  });
});
