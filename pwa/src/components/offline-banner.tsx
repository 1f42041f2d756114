import { useOnlineStatus } from '../lib/use-online-status.ts';

export const OFFLINE_BANNER_TEXT = 'You are offline';

/**
 * A small, non-blocking note while the browser has no network. The status region stays mounted
 * (empty and hidden while online) so screen readers announce the change when it happens.
 */
export function OfflineBanner() {
  const online = useOnlineStatus();
  return (
    <div role="status" className="offline-banner">
      {!online && <p className="offline-banner__text">{OFFLINE_BANNER_TEXT}</p>}
    </div>
  );
}
