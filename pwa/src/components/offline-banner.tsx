import { useOfflineHint } from '../lib/use-online-status.ts';

export const OFFLINE_BANNER_TEXT = 'You are offline';

/**
 * A small, non-blocking note while the app seems offline (use-online-status.ts: known offline, or the
 * browser says so before any request has answered). The status region stays mounted
 * (empty and hidden while online) so screen readers announce the change when it happens.
 */
export function OfflineBanner() {
  const offline = useOfflineHint();
  return (
    <div role="status" className="offline-banner">
      {offline && <p className="offline-banner__text">{OFFLINE_BANNER_TEXT}</p>}
    </div>
  );
}
