import { ApiError } from '../../lib/http.ts';

/** What the user was doing when the identity provider or the Worker refused. */
export type AuthAttempt = 'sign-in' | 'sign-up' | 'reset' | 'verification-email' | 'verification-check';

const OFFLINE = 'You seem to be offline; please try again once you are back online';
const INCORRECT = 'Email or password is incorrect';
const UNAVAILABLE = 'This way of signing in is not available right now; please contact the clinic';
const POPUP_CLOSED = 'The Google sign-in window was closed before you finished signing in';

/** Said when nothing more precise is known (an unexpected provider code, an internal error). */
const FALLBACK: Record<AuthAttempt, string> = {
  'sign-in': 'Signing in failed; please try again',
  'sign-up': 'The account could not be created; please try again',
  reset: 'The reset email could not be sent; please try again later',
  'verification-email': 'The email could not be sent; please try again later',
  'verification-check': 'We could not check your email; please try again later',
};

/**
 * Firebase Auth's error codes in plain words. A wrong password and an unknown email read the same,
 * so the sign-in form never tells whether an address has an account.
 */
const PLAIN: Record<string, string> = {
  'invalid-credential': INCORRECT,
  'invalid-login-credentials': INCORRECT,
  'wrong-password': INCORRECT,
  'invalid-password': INCORRECT,
  'user-not-found': INCORRECT,
  'user-mismatch': INCORRECT,
  'invalid-email': 'Enter a valid email address',
  'missing-email': 'Enter a valid email address',
  'missing-password': 'Enter your password',
  'email-already-in-use': 'An account with this email already exists',
  'account-exists-with-different-credential':
    'An account with this email already exists; sign in with your email and password',
  'credential-already-in-use': 'An account with this email already exists; sign in with your email and password',
  'weak-password': 'password must be 6 characters',
  'user-disabled': 'This account is disabled; please contact the clinic',
  'too-many-requests': 'Too many attempts in a short time; please wait a few minutes and try again',
  'quota-exceeded': 'Too many attempts in a short time; please wait a few minutes and try again',
  'network-request-failed': OFFLINE,
  timeout: OFFLINE,
  'popup-closed-by-user': POPUP_CLOSED,
  'cancelled-popup-request': POPUP_CLOSED,
  'user-cancelled': POPUP_CLOSED,
  'popup-blocked': 'Your browser blocked the Google sign-in window; allow pop-ups for this site and try again',
  'operation-not-allowed': UNAVAILABLE,
  'unauthorized-domain': UNAVAILABLE,
  'invalid-api-key': UNAVAILABLE,
  'api-key-not-valid': UNAVAILABLE,
  'app-not-authorized': UNAVAILABLE,
  'configuration-not-found': UNAVAILABLE,
  'web-storage-unsupported': 'Signing in needs cookies and site data; allow them for this site and try again',
  'invalid-action-code': 'This sign-in link was used already or has expired; ask for a new one',
  'expired-action-code': 'This sign-in link was used already or has expired; ask for a new one',
};

/** The Firebase Auth code of a failure ('wrong-password'), from its `code` or its message, else null. */
export function authErrorCode(cause: unknown): string | null {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('auth/')) return code.slice('auth/'.length);
  const message = cause instanceof Error ? cause.message : '';
  return /\(auth\/([a-z0-9-]+)\)/.exec(message)?.[1] ?? null;
}

/** A password reset for an address with no account: the reset dialog answers as for any other. */
export function isUnknownAccount(cause: unknown): boolean {
  return authErrorCode(cause) === 'user-not-found';
}

/**
 * docs/product-visitors.md#login: a failed sign-in, sign-up, Google sign-in, password reset or verification
 * in plain words, never the provider's raw code. The Worker's refusals (an email bound to another
 * account, verify first, too many requests) are already plain sentences and are kept.
 */
export function authErrorText(cause: unknown, attempt: AuthAttempt): string {
  if (cause instanceof ApiError) return cause.status === 0 ? OFFLINE : cause.message || FALLBACK[attempt];
  const code = authErrorCode(cause);
  if (code === 'too-many-requests' && attempt === 'verification-email')
    return 'Too many emails were sent just now; please wait a few minutes and try again';
  if (code !== null) return PLAIN[code] ?? FALLBACK[attempt];
  // The app's own refusals are plain Errors with a sentence; anything else (a TypeError, a failed chunk) is not for users.
  if (cause instanceof Error && cause.constructor === Error && cause.message) return cause.message;
  return FALLBACK[attempt];
}
