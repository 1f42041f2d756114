import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render as prerender } from '../entry-server.tsx';
import { storeSession, stubFetch, stubMediaQueries } from '../testing/test-utils.tsx';
import { App } from './app.tsx';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('prerendered landing page', () => {
  it('contains the landing content and hydrates without a mismatch', async () => {
    stubMediaQueries(['(min-width: 1024px)', '(min-width: 640px)']);
    stubFetch(() => new Promise<Response>(() => {})); // reviews still loading
    const html = await prerender('/');
    expect(html).toContain('9.00 am to 5.00pm every day');
    expect(html).toContain('What Our Patients Says');

    const container = document.createElement('div');
    container.id = 'root';
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const consoleError = vi.spyOn(console, 'error');

    await act(async () => {
      root = hydrateRoot(container, <App />, { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    // The server and client renderers share one process here, which React's dev build notes; that is not a mismatch.
    const errors = consoleError.mock.calls
      .map((call) => String(call[0]))
      .filter((m) => !m.includes('multiple renderers'));
    expect(errors).toEqual([]);
    // hydrated, hence interactive
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await userEvent.setup().click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('hydrates signed-out for a signed-in visitor, then shows Dashboard and Sign Out from the stored session', async () => {
    stubMediaQueries(['(min-width: 1024px)', '(min-width: 640px)']);
    stubFetch(() => new Promise<Response>(() => {}));
    const html = await prerender('/');
    storeSession('pat@clinic.test');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <App />, { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });
});
