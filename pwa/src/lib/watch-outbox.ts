import { knownOffline, subscribeConnection } from './connection.ts';
import { isOutboxPending } from './outbox-pending.ts';

/**
 * Sends what an earlier visit queued, if the flag is set: now (at start-up, whatever navigator.onLine
 * says: the send itself finds out) and whenever the connection comes back (connection.ts: the `online`
 * event, or any request answering after the app knew it was offline), then at once, not after the
 * remaining backoff. Returns a function that stops watching.
 */
export function watchOutbox(): () => void {
  const drainIfPending = (now: boolean) => {
    if (!isOutboxPending()) return;
    import('./outbox.ts').then(
      ({ sharedOutbox }) => (now ? sharedOutbox().retryNow() : sharedOutbox().drain()),
      (cause: unknown) => console.error(cause),
    );
  };
  const onChange = () => {
    if (!knownOffline()) drainIfPending(true);
  };
  const onOnline = () => drainIfPending(true);
  const unsubscribe = subscribeConnection(onChange);
  // The `online` event also when the app never knew it was offline (the change above then never fires).
  window.addEventListener('online', onOnline);
  drainIfPending(false);
  return () => {
    unsubscribe();
    window.removeEventListener('online', onOnline);
  };
}
