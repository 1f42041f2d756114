// A flag in localStorage that keeps IndexedDB off the first load: at start-up the outbox (and Dexie)
// is loaded only when it says that something waits to be sent (watch-outbox.ts). The outbox sets it
// when it queues an entry and clears it when nothing is left to send.

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
