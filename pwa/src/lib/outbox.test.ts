import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../testing/test-utils.tsx';
import { ClinicDatabase } from './db.ts';
import { notify } from './notify.ts';
import { backoffDelay, Outbox, parkedMessageText, QUEUED_MESSAGE_SENT_TEXT, STALE_CLAIM_MS } from './outbox.ts';
import { isOutboxPending } from './outbox-pending.ts';

// Each test gets its own in-memory IndexedDB; two ClinicDatabase connections on the same factory
// behave like two tabs of the same origin.
let factory: IDBFactory;
let online: boolean;
const databases: ClinicDatabase[] = [];
const outboxes: Outbox[] = [];

function openTab() {
  const db = new ClinicDatabase('smile-dental', { indexedDB: factory, IDBKeyRange });
  const outbox = new Outbox({ db, isOnline: () => online });
  databases.push(db);
  outboxes.push(outbox);
  return { db, outbox };
}

let sent: { key: string | null; body: unknown }[];
let answer: (request: Request) => Response | Promise<Response>;

beforeEach(() => {
  factory = new IDBFactory();
  online = true;
  sent = [];
  answer = () => json({ acknowledged: true, insertedId: 'c-1' }, 201);
  stubFetch(async (request) => {
    sent.push({ key: request.headers.get('Idempotency-Key'), body: await request.clone().json() });
    return answer(request);
  });
});

afterEach(() => {
  for (const outbox of outboxes.splice(0)) outbox.stop();
  for (const db of databases.splice(0)) db.close();
  vi.useRealTimers();
});

/** Lets IndexedDB work proceed (it runs on real setImmediate, which the tests never fake). */
async function settle(rounds = 50) {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Retries `assertion` while IndexedDB catches up, without moving the (possibly fake) clock. */
async function eventually(assertion: () => Promise<void> | void, rounds = 100) {
  for (let i = 0; ; i++) {
    try {
      return await assertion();
    } catch (error) {
      if (i >= rounds) throw error;
      await settle(5);
    }
  }
}

const contact = (n: number) => ({
  key: `key-${n}-0123456789`,
  path: '/contact',
  body: JSON.stringify({
    user_name: 'Ada',
    user_email: 'ada@example.com',
    subject: `Subject ${n}`,
    message: `Message ${n}`,
  }),
  label: `Subject ${n}`,
});

describe('contact outbox', () => {
  it('keeps a message queued while offline and sends nothing', async () => {
    online = false;
    const { outbox } = openTab();
    await outbox.enqueue(contact(1));
    await outbox.drain();

    expect(sent).toEqual([]);
    expect((await outbox.entries()).map((e) => [e.key, e.state, e.label])).toEqual([
      ['key-1-0123456789', 'queued', 'Subject 1'],
    ]);
    expect(isOutboxPending()).toBe(true);
  });

  it('sends a queued message once when back online, with its Idempotency-Key, and says so', async () => {
    const success = vi.spyOn(notify, 'success');
    online = false;
    const { outbox } = openTab();
    await outbox.enqueue(contact(1));

    online = true;
    await outbox.drain();
    await outbox.drain();

    expect(sent).toEqual([{ key: 'key-1-0123456789', body: JSON.parse(contact(1).body) }]);
    expect(await outbox.entries()).toEqual([]);
    expect(success).toHaveBeenCalledExactlyOnceWith(QUEUED_MESSAGE_SENT_TEXT);
    expect(isOutboxPending()).toBe(false);
  });

  it('parks a message the server refuses (4xx): kept, never retried, and the user is told why', async () => {
    const error = vi.spyOn(notify, 'error');
    answer = () => json({ acknowledged: false, message: 'user_email must be a valid email' }, 400);
    online = false;
    const { outbox } = openTab();
    await outbox.enqueue(contact(1));

    online = true;
    await outbox.drain();
    await outbox.drain();

    expect(sent).toHaveLength(1);
    expect((await outbox.entries()).map((e) => [e.state, e.error])).toEqual([
      ['parked', 'user_email must be a valid email'],
    ]);
    expect(error).toHaveBeenCalledExactlyOnceWith(
      'Your message "Subject 1" could not be sent: user_email must be a valid email',
    );
    expect(error.mock.calls[0]![0]).toBe(parkedMessageText('Subject 1', 'user_email must be a valid email'));
    expect(isOutboxPending()).toBe(false);
  });

  it.each([
    ['a 503 answer', () => json({ message: 'Mail is unavailable' }, 503)],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a 429 answer', () => json({ message: 'Too many requests' }, 429)],
  ])('retries after %s with exponential backoff, then sends it, always with the same key', async (_, failure) => {
    // Only the outbox's timers and clock are faked; IndexedDB (fake-indexeddb) runs on real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = new Date('2026-11-21T15:00:00Z').getTime();
    vi.setSystemTime(start);
    const success = vi.spyOn(notify, 'success');
    let failures = 2;
    answer = () => (failures-- > 0 ? failure() : json({ acknowledged: true }, 201));
    const { outbox } = openTab();
    const entry = async () => (await outbox.entries())[0];

    await outbox.enqueue(contact(1)); // online: sent at once, and fails
    await eventually(async () => expect(await entry()).toMatchObject({ state: 'queued', attempts: 1 }));
    expect(sent).toHaveLength(1);
    expect((await entry())!.nextAttemptAt).toBe(start + 2_000);

    await vi.advanceTimersByTimeAsync(1_999);
    await outbox.drain(); // e.g. an online event: still too early for this entry
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(async () => expect(await entry()).toMatchObject({ state: 'queued', attempts: 2 }));
    expect(sent).toHaveLength(2);
    expect((await entry())!.nextAttemptAt).toBe(start + 2_000 + 4_000);

    await vi.advanceTimersByTimeAsync(3_999);
    await settle();
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(async () => expect(await outbox.entries()).toEqual([]));

    expect(sent.map((s) => s.key)).toEqual(['key-1-0123456789', 'key-1-0123456789', 'key-1-0123456789']);
    expect(success).toHaveBeenCalledExactlyOnceWith(QUEUED_MESSAGE_SENT_TEXT);
  });

  it('waits at most 5 minutes between attempts', () => {
    expect([1, 2, 3, 8, 9, 20].map(backoffDelay)).toEqual([2_000, 4_000, 8_000, 256_000, 300_000, 300_000]);
  });

  it('never sends a message twice when two tabs drain at the same time', async () => {
    online = false;
    const first = openTab();
    const second = openTab();
    for (const n of [1, 2, 3]) await first.outbox.enqueue(contact(n));
    answer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // both drainers are in flight together
      return json({ acknowledged: true }, 201);
    };

    online = true;
    await Promise.all([first.outbox.drain(), second.outbox.drain(), first.outbox.drain(), second.outbox.drain()]);

    expect(sent.map((s) => s.key).sort()).toEqual(['key-1-0123456789', 'key-2-0123456789', 'key-3-0123456789']);
    expect(await second.outbox.entries()).toEqual([]);
  });

  it("takes over a claim left by a tab that closed mid-send, but not a live one's", async () => {
    const { db, outbox } = openTab();
    online = false;
    await outbox.enqueue(contact(1));
    await outbox.enqueue(contact(2));
    const now = Date.now();
    await db.outbox.update(contact(1).key, {
      state: 'sending',
      claimedAt: now - STALE_CLAIM_MS - 1,
      claimId: 'closed-tab',
    });
    await db.outbox.update(contact(2).key, { state: 'sending', claimedAt: now - 1_000, claimId: 'live-tab' });

    online = true;
    await outbox.drain();

    expect(sent.map((s) => s.key)).toEqual([contact(1).key]);
    expect((await outbox.entries()).map((e) => [e.key, e.claimId])).toEqual([[contact(2).key, 'live-tab']]);
  });
});
