// A tiny start-up check that keeps IndexedDB off the first load: the outbox (and Dexie) is loaded
// only when this flag says that something waits to be sent. The outbox sets it when it queues an
// entry and clears it when nothing is left to send.

const PENDING_KEY = 'outbox:pending';

export function markOutboxPending(): void {
  try {
    localStorage.setItem(PENDING_KEY, '1');
  } catch {
    // storage refused: the next enqueue or online event drains anyway in this tab
  }
}

export function clearOutboxPending(): void {
  try {
    localStorage.removeItem(PENDING_KEY);
  } catch {
    // nothing to do
  }
}

export function isOutboxPending(): boolean {
  try {
    return localStorage.getItem(PENDING_KEY) !== null;
  } catch {
    return false;
  }
}

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
