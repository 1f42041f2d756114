import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Whether the browser says it is online (navigator.onLine), kept current by the online/offline events.
 * The prerender (and the hydration that follows it) takes the page to be online.
 */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
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
