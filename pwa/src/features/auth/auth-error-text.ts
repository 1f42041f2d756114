import { ApiError } from '../../lib/http.ts';
import type { MessageKey, Translate } from '../../lib/i18n.tsx';

/** What the user was doing when the identity provider or the Worker refused. */
export type AuthAttempt = 'sign-in' | 'sign-up' | 'reset' | 'verification-email' | 'verification-check';

const OFFLINE = 'auth.offline';
const INCORRECT = 'auth.incorrect';
const UNAVAILABLE = 'auth.unavailable';
const POPUP_CLOSED = 'auth.popupClosed';
const IN_USE = 'auth.inUseSignIn';
const LINK_USED = 'auth.linkUsed';
const TOO_MANY = 'auth.tooMany';

/** Said when nothing more precise is known (an unexpected provider code, an internal error). */
const FALLBACK: Record<AuthAttempt, MessageKey> = {
  'sign-in': 'auth.failed.signIn',
  'sign-up': 'auth.failed.signUp',
  reset: 'auth.failed.reset',
  'verification-email': 'auth.failed.verificationEmail',
  'verification-check': 'auth.failed.verificationCheck',
};

/**
 * Firebase Auth's error codes in plain words. A wrong password and an unknown email read the same,
 * so the sign-in form never tells whether an address has an account.
 */
const PLAIN: Record<string, MessageKey> = {
  'invalid-credential': INCORRECT,
  'invalid-login-credentials': INCORRECT,
  'wrong-password': INCORRECT,
  'invalid-password': INCORRECT,
  'user-not-found': INCORRECT,
  'user-mismatch': INCORRECT,
  'invalid-email': 'auth.invalidEmail',
  'missing-email': 'auth.invalidEmail',
  'missing-password': 'auth.missingPassword',
  'email-already-in-use': 'auth.inUse',
  'account-exists-with-different-credential': IN_USE,
  'credential-already-in-use': IN_USE,
  'weak-password': 'auth.password.short',
  'user-disabled': 'auth.disabled',
  'too-many-requests': TOO_MANY,
  'quota-exceeded': TOO_MANY,
  'network-request-failed': OFFLINE,
  timeout: OFFLINE,
  'popup-closed-by-user': POPUP_CLOSED,
  'cancelled-popup-request': POPUP_CLOSED,
  'user-cancelled': POPUP_CLOSED,
  'popup-blocked': 'auth.popupBlocked',
  'operation-not-allowed': UNAVAILABLE,
  'unauthorized-domain': UNAVAILABLE,
  'invalid-api-key': UNAVAILABLE,
  'api-key-not-valid': UNAVAILABLE,
  'app-not-authorized': UNAVAILABLE,
  'configuration-not-found': UNAVAILABLE,
  'web-storage-unsupported': 'auth.storage',
  'invalid-action-code': LINK_USED,
  'expired-action-code': LINK_USED,
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
 * in plain words (`t`'s language), never the provider's raw code. The Worker's refusals (an email bound to
 * another account, verify first, too many requests) are already plain sentences and are kept.
 */
export function authErrorText(cause: unknown, attempt: AuthAttempt, t: Translate): string {
  if (cause instanceof ApiError) return cause.status === 0 ? t(OFFLINE) : cause.message || t(FALLBACK[attempt]);
  const code = authErrorCode(cause);
  if (code === 'too-many-requests' && attempt === 'verification-email') return t('auth.tooManyEmails');
  if (code !== null) return t(PLAIN[code] ?? FALLBACK[attempt]);
  // The app's own refusals are plain Errors with a sentence; anything else (a TypeError, a failed chunk) is not for users.
  if (cause instanceof Error && cause.constructor === Error && cause.message) return cause.message;
  return t(FALLBACK[attempt]);
}
