import type { Translate } from './i18n.tsx';

/** Why a guard sent someone to /login, kept in the history entry's state (the address stays the spec's). */
export type LoginReason = 'staff-only';

/** What the login page says about why it was opened, from its history state; null when it was opened by hand. */
export function loginReasonText(historyState: unknown, t: Translate): string | null {
  const reason = (historyState as { loginReason?: unknown } | null)?.loginReason;
  return reason === 'staff-only' ? t('login.staffOnly') : null;
}

/** `/login?from=<path>`: where a guard sends a visitor who must sign in first. */
export function loginPathFor(path: string): string {
  return `/login?from=${encodeURIComponent(path)}`;
}

/**
 * The page to return to after signing in: `from` when it is a path on this site (one leading '/',
 * not '//host' or '/\host'), else '/'. Keeps a crafted login link from sending users elsewhere.
 */
export function safeReturnPath(from: string | null | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  try {
    const base = 'https://clinic.invalid';
    const url = new URL(from, base);
    if (url.origin !== base) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** `path` with the page to come back to after signing in (`?from=`), when there is one. */
export const withFrom = (path: string, from: string | null) =>
  from ? `${path}?from=${encodeURIComponent(from)}` : path;
