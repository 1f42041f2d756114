import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { noteNetworkFailure } from './connection.ts';
import { DB_NAME } from './db.ts';
import { type NewOutboxEntry, Outbox, sharedOutbox } from './outbox.ts';
import { isOutboxPending } from './outbox-pending.ts';
import { watchOutbox } from './watch-outbox.ts';

let online: boolean;
let stop = () => {};

beforeEach(() => {
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
});

afterEach(() => stop());

const message = {
  key: 'queued-on-an-earlier-visit',
  path: '/contact',
  body: JSON.stringify({
    user_name: 'Ada',
    user_email: 'ada@example.com',
    subject: 'Sundays',
    message: 'Open on Sundays?',
  }),
  label: 'Sundays',
};

/** Queues `entry` in the app's outbox as a visit that then closed would have: unsent, no timer left behind. */
async function queueOnAnEarlierVisit(entry: NewOutboxEntry) {
  const earlier = new Outbox({ isOnline: () => false });
  await earlier.enqueue(entry);
  earlier.stop();
}

const databaseNames = async () => (await indexedDB.databases()).map((d) => d.name);

describe('the outbox at start-up', () => {
  it('sends what an earlier visit queued, and then clears the pending flag', async () => {
    online = false;
    await queueOnAnEarlierVisit(message);
    expect(isOutboxPending()).toBe(true);
    online = true;
    const fetch = stubFetch(() => json({ acknowledged: true }, 201));

    stop = watchOutbox();

    await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(isOutboxPending()).toBe(false));
    expect(await sharedOutbox().entries()).toEqual([]);
  });

  it('sends at start-up even while navigator.onLine says offline: the send finds out', async () => {
    online = false;
    await queueOnAnEarlierVisit(message);
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return json({ acknowledged: true }, 201);
    });

    stop = watchOutbox();

    await vi.waitFor(() => expect(keys).toEqual(['queued-on-an-earlier-visit']));
    await vi.waitFor(() => expect(isOutboxPending()).toBe(false));
  });

  it('once a send fails on the network, waits for the connection and then sends without waiting out its backoff', async () => {
    let reachable = false;
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      if (!reachable) return Promise.reject(new TypeError('Failed to fetch'));
      keys.push(request.headers.get('Idempotency-Key'));
      return json({ acknowledged: true }, 201);
    });
    await queueOnAnEarlierVisit({ ...message, failedAttempts: 5 }); // next attempt in over a minute
    noteNetworkFailure();

    stop = watchOutbox();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(keys).toEqual([]);

    reachable = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(keys).toEqual(['queued-on-an-earlier-visit']));
    await vi.waitFor(() => expect(isOutboxPending()).toBe(false));
  });

  it('sends as soon as any request answers after the app knew it was offline, with no online event', async () => {
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return json({ acknowledged: true }, 201);
    });
    await queueOnAnEarlierVisit({ ...message, failedAttempts: 5 });
    noteNetworkFailure();
    stop = watchOutbox();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(keys).toEqual([]);

    await api('/reviews'); // any answer: the connection is back

    await vi.waitFor(() => expect(keys).toEqual([null, 'queued-on-an-earlier-visit']));
  });

  it('opens no IndexedDB at all when nothing is pending', async () => {
    const fetch = stubFetch(() => json({ acknowledged: true }, 201));

    stop = watchOutbox();
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(fetch).not.toHaveBeenCalled();
    expect(await databaseNames()).not.toContain(DB_NAME);
  });
});
