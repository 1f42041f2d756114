import { isOutboxPending } from './outbox-pending.ts';

/**
 * Sends what an earlier visit queued: now (at start-up) and whenever the browser comes back online,
 * if the flag is set. Returns a function that stops watching.
 */
export function watchOutbox(): () => void {
  const drainIfPending = () => {
    if (!navigator.onLine || !isOutboxPending()) return;
    import('./outbox.ts').then(
      ({ sharedOutbox }) => sharedOutbox().drain(),
      (cause: unknown) => console.error(cause),
    );
  };
  window.addEventListener('online', drainIfPending);
  drainIfPending();
  return () => window.removeEventListener('online', drainIfPending);
}
