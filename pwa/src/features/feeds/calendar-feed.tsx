import { useId, useState } from 'react';
import './calendar-feed.css';
import type { FeedCreated } from '../../../../contract/feeds.ts';
import { client } from '../../lib/client.ts';
import { errorText } from '../../lib/error-text.ts';
import { useT } from '../../lib/i18n.tsx';
import { notify } from '../../lib/notify.ts';

/**
 * docs/product-booking.md#calendar-feeds: a private calendar feed (the patient's own, or with `doctorId` a
 * doctor's, for the admin): "Subscribe" opens the calendar app (webcal://), the address can be
 * copied, and a new address or "Stop the feed" ends the one before. The server keeps only a hash
 * of the address, so it is shown once, when made.
 */
export function CalendarFeed({ doctorId, who }: { doctorId?: string; who: string }) {
  const id = useId();
  const [feed, setFeed] = useState<FeedCreated | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setBusy(false);
    }
  }

  const create = () =>
    run(async () => {
      setFeed(await client('POST /feeds', { body: doctorId ? { doctorId } : {} }));
    });
  const stop = () =>
    run(async () => {
      const { deletedCount } = await client('DELETE /feeds', { query: { doctorId } });
      setFeed(null);
      notify.success(deletedCount > 0 ? t('feed.stopped') : t('feed.noneToStop'));
    });

  return (
    <div className="calendar-feed">
      <p className="calendar-feed__lead">{t('feed.lead', { who })}</p>
      {feed && (
        <>
          <a className="button button--primary button--small" href={feed.webcal}>
            {t('feed.subscribe')}
          </a>
          <div className="field">
            <label htmlFor={`${id}-url`}>{t('feed.address')}</label>
            <input id={`${id}-url`} type="text" readOnly value={feed.url} onFocus={(e) => e.currentTarget.select()} />
          </div>
        </>
      )}
      <p className="calendar-feed__actions">
        <button type="button" className="button button--small" onClick={() => void create()} disabled={busy}>
          {feed ? t('feed.newAddress') : t('feed.get')}
        </button>
        <button type="button" className="button button--small" onClick={() => void stop()} disabled={busy}>
          {t('feed.stop')}
        </button>
      </p>
    </div>
  );
}
