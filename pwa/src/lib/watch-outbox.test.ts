import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../testing/test-utils.tsx';
import { DB_NAME } from './db.ts';
import { sharedOutbox } from './outbox.ts';
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

const databaseNames = async () => (await indexedDB.databases()).map((d) => d.name);

describe('the outbox at start-up', () => {
  it('sends what an earlier visit queued, and then clears the pending flag', async () => {
    online = false;
    await sharedOutbox().enqueue(message);
    expect(isOutboxPending()).toBe(true);
    online = true;
    const fetch = stubFetch(() => json({ acknowledged: true }, 201));

    stop = watchOutbox();

    await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(isOutboxPending()).toBe(false));
    expect(await sharedOutbox().entries()).toEqual([]);
  });

  it('waits for the online event when the app starts offline', async () => {
    online = false;
    await sharedOutbox().enqueue(message);
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return json({ acknowledged: true }, 201);
    });

    stop = watchOutbox();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(keys).toEqual([]);

    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(keys).toEqual(['queued-on-an-earlier-visit']));
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
