import { useId, useState } from 'react';
import { logUnexpected } from '../../../lib/error-text.ts';
import { useT } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { authErrorText } from '../auth-error-text.ts';
import '../verify-email-banner.css';

/**
 * Under the header of both layouts while the signed-in user's email is not verified (the Worker refuses
 * booking and reviews until it is): a new link on request, and "I've verified" once they opened it.
 * Reads only the session, so the landing page shows it without loading Firebase.
 */
export function VerifyEmailBanner() {
  const { user, resendVerification, confirmVerified } = useSession();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const t = useT();
  if (!user || user.emailVerified) return null;

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  const resend = () =>
    run(async () => {
      try {
        await resendVerification();
        notify.success(t('verify.resent', { email: user.email ?? '' }));
      } catch (cause) {
        logUnexpected(cause);
        notify.error(authErrorText(cause, 'verification-email', t));
      }
    });

  const confirm = () =>
    run(async () => {
      try {
        if (await confirmVerified()) notify.success(t('verify.done'));
        else notify.error(t('verify.notYet', { email: user.email ?? '' }));
      } catch (cause) {
        logUnexpected(cause);
        notify.error(authErrorText(cause, 'verification-check', t));
      }
    });

  return (
    <section className="verify-banner" aria-labelledby={titleId}>
      <p className="verify-banner__text">
        <strong id={titleId} className="verify-banner__title">
          {t('verify.title')}
        </strong>{' '}
        {t('verify.text', { email: user.email ?? '' })}
      </p>
      <div className="verify-banner__actions">
        <button type="button" className="button button--small" onClick={resend} disabled={busy}>
          {t('verify.resend')}
        </button>
        <button type="button" className="button button--small button--primary" onClick={confirm} disabled={busy}>
          {t('verify.confirm')}
        </button>
      </div>
    </section>
  );
}
