import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { english } from '../../lib/i18n.tsx';
import { authErrorCode, authErrorText, isUnknownAccount } from './auth-error-text.ts';

/** As the Firebase SDK throws: a FirebaseError with its code and the code in its message. */
class FirebaseError extends Error {
  constructor(readonly code: string) {
    super(`Firebase: Error (${code}).`);
  }
}

describe('authErrorText', () => {
  it.each(['auth/wrong-password', 'auth/user-not-found', 'auth/invalid-credential', 'auth/invalid-login-credentials'])(
    'answers %s on sign-in with one message, so it never tells whether the email has an account',
    (code) => {
      expect(authErrorText(new FirebaseError(code), 'sign-in', english)).toBe('Email or password is incorrect');
    },
  );

  it('reads the code from the message when the error carries no code (the emulator, a wrapped error)', () => {
    expect(authErrorText(new Error('Firebase: Error (auth/wrong-password).'), 'sign-in', english)).toBe(
      'Email or password is incorrect',
    );
  });

  it.each([
    ['auth/email-already-in-use', 'sign-up', 'An account with this email already exists'],
    ['auth/weak-password', 'sign-up', 'password must be 6 characters'],
    ['auth/invalid-email', 'reset', 'Enter a valid email address'],
    ['auth/too-many-requests', 'sign-in', 'Too many attempts in a short time; please wait a few minutes and try again'],
    [
      'auth/too-many-requests',
      'verification-email',
      'Too many emails were sent just now; please wait a few minutes and try again',
    ],
    ['auth/network-request-failed', 'reset', 'You seem to be offline; please try again once you are back online'],
    ['auth/popup-closed-by-user', 'sign-in', 'The Google sign-in window was closed before you finished signing in'],
    ['auth/user-disabled', 'sign-in', 'This account is disabled; please contact the clinic'],
  ] as const)('says %s during %s as "%s"', (code, attempt, text) => {
    expect(authErrorText(new FirebaseError(code), attempt, english)).toBe(text);
  });

  it('never shows an unknown provider code, only what failed', () => {
    const unknown = new FirebaseError('auth/internal-error');
    expect(authErrorText(unknown, 'sign-in', english)).toBe('Signing in failed; please try again');
    expect(authErrorText(unknown, 'sign-up', english)).toBe('The account could not be created; please try again');
    expect(authErrorText(unknown, 'reset', english)).toBe('The reset email could not be sent; please try again later');
    expect(authErrorText(new TypeError('x is undefined'), 'verification-check', english)).toBe(
      'We could not check your email; please try again later',
    );
    expect(authErrorText('auth/something', 'verification-email', english)).toBe(
      'The email could not be sent; please try again later',
    );
  });

  it("keeps the Worker's plain refusals and says offline when the request never arrived", () => {
    const conflict = new ApiError(409, 'An account with this email already exists; contact the clinic');
    expect(authErrorText(conflict, 'sign-in', english)).toBe(
      'An account with this email already exists; contact the clinic',
    );
    expect(authErrorText(new ApiError(0, 'Failed to fetch'), 'sign-up', english)).toBe(
      'You seem to be offline; please try again once you are back online',
    );
    expect(authErrorText(new ApiError(500, ''), 'sign-in', english)).toBe('Signing in failed; please try again');
  });
});

describe('authErrorCode and isUnknownAccount', () => {
  it('finds the code in the error or its message, else none', () => {
    expect(authErrorCode(new FirebaseError('auth/user-not-found'))).toBe('user-not-found');
    expect(authErrorCode(new Error('Firebase: Error (auth/too-many-requests).'))).toBe('too-many-requests');
    expect(authErrorCode(new Error('Network down'))).toBeNull();
    expect(authErrorCode(null)).toBeNull();
  });

  it('tells the reset dialog only about an address with no account', () => {
    expect(isUnknownAccount(new FirebaseError('auth/user-not-found'))).toBe(true);
    expect(isUnknownAccount(new FirebaseError('auth/invalid-email'))).toBe(false);
  });
});
