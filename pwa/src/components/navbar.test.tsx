import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../app/routes.tsx';
import { listenForInstallPrompt } from '../lib/install-prompt.ts';
import { json, prerendered, renderWithProviders, stubFetch } from '../testing/test-utils.tsx';
import { MenuButton } from './navbar.tsx';

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

/** What Chromium fires when the app can be installed. */
function offerInstall() {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome: 'accepted' as const, platform: 'web' }),
  });
  act(() => void window.dispatchEvent(event));
  return event;
}

beforeEach(() => {
  stubFetch(() => json([]));
});

afterEach(() => {
  act(() => void window.dispatchEvent(new Event('appinstalled')));
});

describe('Menu button', () => {
  it('takes no tap while prerendered, until its code has taken the page over', async () => {
    const onToggle = vi.fn();
    const { container, hydrate } = prerendered(<MenuButton open={false} controls="menu" onToggle={onToggle} />);
    const toggle = () => container.querySelector('button') as HTMLButtonElement;
    expect(toggle().disabled).toBe(true);

    hydrate();
    expect(toggle().disabled).toBe(false);
    await userEvent.click(toggle());
    expect(onToggle).toHaveBeenCalledOnce();
  });
});

describe('Install app button', () => {
  it('is not there until the browser offers installation', () => {
    renderWithProviders(<AppRoutes />);
    expect(nav().queryByRole('button', { name: 'Install app' })).toBeNull();
  });

  it("appears when the browser offers installation, and opens the browser's install dialog", async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />);

    const offer = offerInstall();

    expect(offer.defaultPrevented).toBe(true); // our button instead of the browser's mini-infobar
    await user.click(nav().getByRole('button', { name: 'Install app' }));
    expect(offer.prompt).toHaveBeenCalledOnce();
    // An offer is good for one prompt: the button goes until the browser offers again.
    expect(nav().queryByRole('button', { name: 'Install app' })).toBeNull();
  });

  it('keeps an offer made before the navigation bar was shown', async () => {
    listenForInstallPrompt(); // as start.tsx does before the first render
    offerInstall();
    renderWithProviders(<AppRoutes />);
    expect(nav().getByRole('button', { name: 'Install app' })).toBeTruthy();
  });

  it('goes away once the app is installed', () => {
    renderWithProviders(<AppRoutes />);
    offerInstall();
    expect(nav().getByRole('button', { name: 'Install app' })).toBeTruthy();

    act(() => void window.dispatchEvent(new Event('appinstalled')));

    expect(nav().queryByRole('button', { name: 'Install app' })).toBeNull();
  });
});
