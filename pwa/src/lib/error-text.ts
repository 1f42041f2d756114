import { ApiError } from './http.ts';
import { english, type Translate } from './i18n.tsx';

/** A failure as readable text: the provider's or the server's own message (e.g. 'Firebase: Error (auth/invalid-credential).'). */
export function errorText(error: unknown, t: Translate = english): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === 'string' && error ? error : t('common.wentWrong');
}

/**
 * Logs a failure the screen has already put in words, unless it is one the app expects: a refusal
 * (a 4xx answer), no network, or the sign-in provider's refusal (a wrong password). A handled
 * refusal is not an error of the app, so the console stays clean on normal paths.
 */
export function logUnexpected(cause: unknown): void {
  if (cause instanceof ApiError && (cause.status === 0 || (cause.status >= 400 && cause.status < 500))) return;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('auth/')) return;
  console.error(cause);
}
