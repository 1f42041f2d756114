import { useState } from 'react';
import './your-data.css';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { client } from '../../lib/client.ts';
import { errorText } from '../../lib/error-text.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../lib/session.tsx';
import { downloadData } from './api/download-data.ts';

/**
 * docs/product-booking.md#your-data: "Download my data" (one JSON file, FHIR where it fits) and "Delete my
 * account" (after a confirmation that says what is erased, what the clinic must keep, and why).
 * `notRefunded`: the paid visits inside the free-cancellation window, which the deletion cancels
 * without a refund (as cancelling them would), named before the patient confirms.
 */
export function YourData({ notRefunded = [] }: { notRefunded?: string[] }) {
  const { signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function download() {
    setBusy(true);
    try {
      await downloadData(null);
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    setBusy(true);
    try {
      await client('DELETE /users/me');
      await signOut({ everywhere: false });
      notify.success('Your account is deleted');
      navigate('/');
    } catch (cause) {
      notify.error(errorText(cause));
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <section className="your-data" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p>
        Everything the clinic holds about you and your family, in one file you can keep or take elsewhere.{' '}
        <Link href="/privacy">Privacy and your data</Link> says what that is and how long it stays.
      </p>
      <p className="your-data__actions">
        <button type="button" className="button button--small" onClick={() => void download()} disabled={busy}>
          Download my data
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => setConfirming(true)}
          disabled={busy}
        >
          Delete my account
        </button>
      </p>
      {confirming && (
        <ConfirmDialog
          title="Delete your account?"
          confirmLabel="Delete my account"
          cancelLabel="Keep it"
          busy={busy}
          onConfirm={() => void erase()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Your upcoming visits, and your family’s, are cancelled; what you paid for them is refunded as when you
            cancel them. Your name, contact details, family, form answers, reviews and settings are erased, and this
            account can no longer reach any of it.
          </p>
          {notRefunded.length > 0 && (
            <p>
              Inside the clinic’s free-cancellation window, so cancelled without a refund: {notRefunded.join('; ')}.
            </p>
          )}
          <p>
            The law makes the clinic keep its payment records and the record of who changed what: they stay, without
            your name. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
