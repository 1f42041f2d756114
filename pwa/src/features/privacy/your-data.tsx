import { useState } from 'react';
import './your-data.css';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { client } from '../../lib/client.ts';
import { errorText } from '../../lib/error-text.ts';
import { useT } from '../../lib/i18n.tsx';
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
  const t = useT();

  async function download() {
    setBusy(true);
    try {
      await downloadData(null);
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    setBusy(true);
    try {
      await client('DELETE /users/me');
      await signOut({ everywhere: false });
      notify.success(t('data.deleted'));
      navigate('/');
    } catch (cause) {
      notify.error(errorText(cause, t));
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <section className="your-data" aria-labelledby="your-data-title">
      <h2 id="your-data-title">{t('data.title')}</h2>
      <p>
        {t('data.lead')} <Link href="/privacy">{t('signup.privacy')}</Link> {t('data.leadRest')}
      </p>
      <p className="your-data__actions">
        <button type="button" className="button button--small" onClick={() => void download()} disabled={busy}>
          {t('data.download')}
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => setConfirming(true)}
          disabled={busy}
        >
          {t('data.delete')}
        </button>
      </p>
      {confirming && (
        <ConfirmDialog
          title={t('data.deleteTitle')}
          confirmLabel={t('data.delete')}
          cancelLabel={t('mine.keep')}
          busy={busy}
          onConfirm={() => void erase()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('data.erased')}</p>
          {notRefunded.length > 0 && <p>{t('data.notRefunded', { visits: notRefunded.join('; ') })}</p>}
          <p>{t('data.kept')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
