import { useId } from 'react';
import useSWR from 'swr';
import { DESK_OUTBOX_KEY } from '../../../lib/cache-keys.ts';
import type { OutboxEntry } from '../../../lib/db.ts';
import { sharedOutbox } from '../../../lib/outbox.ts';

/** The front desk's writes in the outbox: marks of attendance and notes on a visit. */
const DESK_PATH = /^\/bookings\/[^/]+\/(attendance|note)$/;

async function deskEntries(): Promise<OutboxEntry[]> {
  return (await sharedOutbox().entries()).filter((entry) => DESK_PATH.test(entry.path));
}

/**
 * docs/product.md#the-front-desk-offline: what this device keeps to send (made offline), and what
 * the clinic refused when it was sent because the visit had changed meanwhile, with the reason, until
 * the front desk dismisses it. Read from IndexedDB every two seconds while the schedule is open.
 */
export function PendingDeskWrites() {
  const id = useId();
  const { data: entries = [], mutate } = useSWR(DESK_OUTBOX_KEY, deskEntries, {
    refreshInterval: 2000,
    refreshWhenOffline: true,
    dedupingInterval: 0,
  });
  if (entries.length === 0) return null;
  const waiting = entries.filter((entry) => entry.state !== 'parked');
  const refused = entries.filter((entry) => entry.state === 'parked');
  return (
    <section className="pending-desk" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>On this device</h2>
      {waiting.length > 0 && (
        <>
          <p>Waiting for the connection, then sent once:</p>
          <ul>
            {waiting.map((entry) => (
              <li key={entry.key}>{entry.label}</li>
            ))}
          </ul>
        </>
      )}
      {refused.length > 0 && (
        <ul className="pending-desk__refused">
          {refused.map((entry) => (
            <li key={entry.key}>
              <strong>Not saved: {entry.label}.</strong> {entry.error}{' '}
              <button
                type="button"
                className="button button--small"
                onClick={() =>
                  void sharedOutbox()
                    .discard(entry.key)
                    .then(() => mutate())
                }
              >
                Dismiss
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
