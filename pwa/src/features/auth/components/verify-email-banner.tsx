import { useId, useState } from 'react';
import { logUnexpected } from '../../../lib/error-text.ts';
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
        notify.success(`We sent a new link to ${user.email}`);
      } catch (cause) {
        logUnexpected(cause);
        notify.error(authErrorText(cause, 'verification-email'));
      }
    });

  const confirm = () =>
    run(async () => {
      try {
        if (await confirmVerified()) notify.success('Thank you: your email is verified');
        else notify.error(`Your email is not verified yet: open the link we sent to ${user.email}, then try again`);
      } catch (cause) {
        logUnexpected(cause);
        notify.error(authErrorText(cause, 'verification-check'));
      }
    });

  return (
    <section className="verify-banner" aria-labelledby={titleId}>
      <p className="verify-banner__text">
        <strong id={titleId} className="verify-banner__title">
          Verify your email
        </strong>{' '}
        We sent a link to {user.email}. Open it to book appointments and write reviews.
      </p>
      <div className="verify-banner__actions">
        <button type="button" className="button button--small" onClick={resend} disabled={busy}>
          Resend email
        </button>
        <button type="button" className="button button--small button--primary" onClick={confirm} disabled={busy}>
          I've verified
        </button>
      </div>
    </section>
  );
}
