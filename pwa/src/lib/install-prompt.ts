import { useSyncExternalStore } from 'react';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

let offered: BeforeInstallPromptEvent | null = null;
let listening = false;
const subscribers = new Set<() => void>();

function changed(event: BeforeInstallPromptEvent | null) {
  offered = event;
  for (const subscriber of subscribers) subscriber();
}

/**
 * Starts keeping the browser's install offer. Called at start-up (start.tsx), because the event may
 * fire before any component that shows the Install button is mounted; calling it again does nothing.
 */
export function listenForInstallPrompt(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the offer for our own button instead of the browser's mini-infobar.
    event.preventDefault();
    changed(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => changed(null));
}

function subscribe(onChange: () => void) {
  listenForInstallPrompt();
  subscribers.add(onChange);
  return () => subscribers.delete(onChange);
}

/** Shows the browser's install dialog; an offer can be used once, so it is dropped whatever the answer. */
async function install(): Promise<void> {
  const event = offered;
  if (!event) return;
  changed(null);
  try {
    await event.prompt();
    await event.userChoice;
  } catch (cause) {
    console.error(cause);
  }
}

/** Whether the browser offers to install the app (`beforeinstallprompt` seen, not installed since), and how. */
export function useInstallPrompt(): { canInstall: boolean; install: () => Promise<void> } {
  const canInstall = useSyncExternalStore(
    subscribe,
    () => offered !== null,
    () => false,
  );
  return { canInstall, install };
}
