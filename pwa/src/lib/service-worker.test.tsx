import { registerSW } from 'virtual:pwa-register';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RegisterSWOptions } from 'vite-plugin-pwa/types';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/test-utils.tsx';
import { registerServiceWorker, TAKE_OVER_WAIT_MS } from './service-worker.ts';

// The plugin's register module (workbox-window underneath), faked: the test plays the browser's part.
vi.mock('virtual:pwa-register', () => ({ registerSW: vi.fn() }));

let options: RegisterSWOptions;
const updateSW = vi.fn(async (_reloadPage?: boolean) => {});
const reload = vi.fn();

beforeEach(() => {
  vi.mocked(registerSW).mockImplementation((given = {}) => {
    options = given;
    return updateSW;
  });
  updateSW.mockClear();
  reload.mockClear();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
});

describe('service worker updates', () => {
  it('registers the service worker at once (it is loaded after the page has loaded)', () => {
    registerServiceWorker();
    expect(registerSW).toHaveBeenCalledOnce();
    expect(options.immediate).toBe(true);
  });

  it("offers to reload when a new version is waiting, and activates it only on the user's Reload", async () => {
    const user = userEvent.setup();
    renderWithProviders(<p>page</p>);
    registerServiceWorker();
    expect(screen.queryByText('A new version is available')).toBeNull();

    act(() => options.onNeedRefresh?.());

    expect(await screen.findByText('A new version is available')).toBeTruthy();
    expect(updateSW).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(updateSW).toHaveBeenCalledExactlyOnceWith(true);

    // The new worker now controls the page: the reload the user asked for.
    act(() => options.onNeedReload?.());
    expect(reload).toHaveBeenCalledOnce();
  });

  it('reloads anyway when the new worker has not taken over a few seconds after Reload, and only once', async () => {
    const user = userEvent.setup();
    renderWithProviders(<p>page</p>);
    registerServiceWorker();
    act(() => options.onNeedRefresh?.());
    const timers = vi.spyOn(window, 'setTimeout');
    await user.click(await screen.findByRole('button', { name: 'Reload' }));
    const fallback = timers.mock.calls.find(([, ms]) => ms === TAKE_OVER_WAIT_MS)?.[0];
    expect(fallback).toBeTypeOf('function');
    expect(reload).not.toHaveBeenCalled();

    act(() => (fallback as () => void)());
    expect(reload).toHaveBeenCalledOnce();
    // The hand-over arriving late does not reload a second time.
    act(() => options.onNeedReload?.());
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not reload a tab whose new version was activated from another tab: it offers the reload', async () => {
    const user = userEvent.setup();
    renderWithProviders(<p>page</p>);
    registerServiceWorker();

    act(() => options.onNeedReload?.());

    expect(reload).not.toHaveBeenCalled();
    expect(await screen.findByText('A new version is available')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
  });
});
