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
