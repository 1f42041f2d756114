// The first render of a page opened directly (start.tsx): once preloadRoute has loaded the route's code, and with
// who is signed in taken from the saved session, it is the page itself — no spinner, no progress bar.
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { fakeFirebase, watchAuthState } from '../testing/fake-firebase.ts';
import { accessTokenFor, json, storeSession, stubFetch } from '../testing/test-utils.tsx';
import { AppProvider } from './provider.tsx';
import { AppRoutes, preloadRoute } from './routes.tsx';

beforeEach(() => {
  stubFetch(() => json({ message: 'Not found' }, 404));
});

/** Renders the app at `path` as start.tsx does for every page but the prerendered landing page. */
function renderFirst(path: string) {
  window.history.replaceState(null, '', path);
  render(
    <AppProvider fromSavedSession swr={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
      <Router>
        <AppRoutes />
      </Router>
    </AppProvider>,
  );
}

describe('first render of a page opened directly', () => {
  it('is a spinner while the page’s code has not loaded', () => {
    renderFirst('/signup');
    expect(screen.getByText('Loading page')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });

  it('is the page itself once preloadRoute has loaded its code', async () => {
    await preloadRoute('/login');
    renderFirst('/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    expect(screen.queryByText('Loading page')).toBeNull();
  });

  it('is a guarded page itself, with its layout, for a saved session (no progress bar, no Firebase)', async () => {
    fakeFirebase.holdAuthState(); // Firebase would never answer
    storeSession('pat@clinic.test', accessTokenFor('pat@clinic.test'));
    await preloadRoute('/dashboard');
    renderFirst('/dashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'My Appointments' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(watchAuthState).not.toHaveBeenCalled();
  });

  it('sends a visitor with no saved session to the login page', async () => {
    await preloadRoute('/review');
    renderFirst('/review');
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
  });
});
