import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { knownOffline, seemsOffline, subscribeConnection } from './connection.ts';

/**
 * Whether the app may try what needs the server: false only while it knows it is offline (a request
 * failed on the network, or the browser's `offline` event; connection.ts), never on `navigator.onLine`
 * alone. Components show their offline texts and hold their sends while it is false.
 * The prerender (and the hydration that follows it) takes the page to be online.
 */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(
    subscribeConnection,
    () => !knownOffline(),
    () => true,
  );
}

/**
 * Whether to show the offline hint (the banner): known offline, or nothing known yet and the browser
 * says offline. A hint only: it blocks nothing.
 */
export function useOfflineHint(): boolean {
  return useSyncExternalStore(subscribeConnection, seemsOffline, () => false);
}

/**
 * When the connection comes back (`online` turns true), calls `reload` if `stale` says the screen shows an
 * offline state. Only the reconnection triggers it: a load that fails while online does not retry by itself.
 */
export function useReloadOnReconnect(online: boolean, stale: boolean, reload: () => unknown): void {
  const reloadIfStale = useEffectEvent(() => {
    if (stale) void reload();
  });
  useEffect(() => {
    if (online) reloadIfStale();
  }, [online]);
}
