import { useId } from 'react';
import useSWR from 'swr';
import { DESK_OUTBOX_KEY } from '../../../lib/cache-keys.ts';
import type { OutboxEntry } from '../../../lib/db.ts';
import { sharedOutbox } from '../../../lib/outbox.ts';
import type { ScheduleEntry } from '../api/get-schedule.ts';

/** The front desk's writes in the outbox: marks of attendance and notes on a visit. */
const DESK_PATH = /^\/bookings\/[^/]+\/(attendance|note)$/;

async function deskEntries(): Promise<OutboxEntry[]> {
  return (await sharedOutbox().entries()).filter((entry) => DESK_PATH.test(entry.path));
}

/** The desk's writes on this device, read from IndexedDB every two seconds while the schedule is open. */
export function useDeskOutbox() {
  return useSWR(DESK_OUTBOX_KEY, deskEntries, { refreshInterval: 2000, refreshWhenOffline: true, dedupingInterval: 0 });
}

/** A visit as the schedule shows it: with a mark made on this device that waits to be sent, `waitingToSend`. */
export type ShownEntry = ScheduleEntry & { waitingToSend?: boolean };

/**
 * The day's visits with the marks of attendance that wait on this device applied, so a visit marked
 * offline shows its mark (and offers it no second time) before and while it is sent; the schedule
 * is fetched again once it is (invalidation.ts).
 */
export function withWaitingMarks(bookings: readonly ScheduleEntry[], entries: readonly OutboxEntry[]): ShownEntry[] {
  const marks = new Map<string, ScheduleEntry['status']>();
  for (const entry of entries) {
    const booking = /^\/bookings\/([^/]+)\/attendance$/.exec(entry.path)?.[1];
    if (!booking || entry.state === 'parked') continue;
    const { status } = JSON.parse(entry.body ?? '{}') as { status?: ScheduleEntry['status'] };
    if (status) marks.set(decodeURIComponent(booking), status);
  }
  return bookings.map((booking) => {
    const status = marks.get(booking._id);
    return status ? { ...booking, status, waitingToSend: true } : booking;
  });
}

/**
 * docs/product-admin.md#the-front-desk-offline: what this device keeps to send (made offline), and what
 * the clinic refused when it was sent because the visit had changed meanwhile, with the reason, until
 * the front desk dismisses it.
 */
export function PendingDeskWrites() {
  const id = useId();
  const { data: entries = [], mutate } = useDeskOutbox();
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
