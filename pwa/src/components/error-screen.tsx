import { useLocation } from 'wouter';
import { logUnexpected } from '../lib/error-text.ts';
import { type Translate, useT } from '../lib/i18n.tsx';
import { useSession } from '../lib/session.tsx';

type ErrorLike = { status?: unknown; statusText?: unknown; message?: unknown };

function describeError(error: unknown, t: Translate): { text: string; status: string } {
  const e: ErrorLike = typeof error === 'object' && error !== null ? (error as ErrorLike) : { message: String(error) };
  const text =
    (typeof e.statusText === 'string' && e.statusText) ||
    (typeof e.message === 'string' && e.message) ||
    t('error.unexpected');
  const status = typeof e.status === 'number' && e.status > 0 ? String(e.status) : '';
  return { text, status };
}

/** What both layouts show when a page fails (docs/product.md#error-screen). */
export function ErrorScreen({ error, onReset }: { error: unknown; onReset?: () => void }) {
  const { signOut } = useSession();
  const [, navigate] = useLocation();
  const t = useT();
  const { text, status } = describeError(error, t);

  // Leave the page first, so no guard on it sees the sign-out and sends the user to /login.
  async function handleSignOut() {
    navigate('/');
    onReset?.();
    try {
      await signOut();
    } catch (cause) {
      logUnexpected(cause);
    }
  }

  return (
    <section className="error-screen" role="alert">
      <h1>{t('error.title')}</h1>
      <p className="error-screen__text">{text}</p>
      {status && <p className="error-screen__status">{status}</p>}
      <p>
        <button type="button" className="button" onClick={handleSignOut}>
          {t('error.signOut')}
        </button>{' '}
        {t('error.logBackIn')}
      </p>
    </section>
  );
}
