import { api } from './api.ts';
import { knownOffline } from './connection.ts';
import { type ClinicDatabase, clinicDb, type OutboxEntry } from './db.ts';
import { ApiError } from './http.ts';
import { notify } from './notify.ts';
import { clearOutboxPending, markOutboxPending } from './outbox-pending.ts';

/**
 * A claim this old belongs to a tab that closed mid-send (a live one gives up after SEND_TIMEOUT_MS):
 * another drainer may take it over.
 */
export const STALE_CLAIM_MS = 60_000;
export const MAX_BACKOFF_MS = 5 * 60_000;

/** The wait before the next attempt after `attempts` failed ones: 2, 4, 8 … seconds, at most 5 minutes. */
export const backoffDelay = (attempts: number): number => Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS);

export const QUEUED_MESSAGE_SENT_TEXT = 'Your queued message was sent.';
export const parkedMessageText = (label: string, serverMessage: string) =>
  `Your message "${label}" could not be sent: ${serverMessage}`;

/** 4xx answers that say "later", not "never": retried like a 5xx. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

export type OutboxRequest = { key: string; path: string; body: string; method?: 'POST' | 'PUT' };
export type Send = (request: OutboxRequest) => Promise<void>;

export type NewOutboxEntry = OutboxRequest & {
  label: string;
  sentText?: string;
  refusedText?: string;
  /** Attempts already made before queueing (1 after a direct send that hit a network failure). */
  failedAttempts?: number;
};

/** An attempt that gets no answer in this time counts as a network failure (and is retried later). */
export const SEND_TIMEOUT_MS = 30_000;

/** POST (or PUT) with the entry's Idempotency-Key, the same on every attempt; resolves on 2xx, throws ApiError otherwise. */
const postWithKey: Send = async ({ key, path, body, method = 'POST' }) => {
  await api<unknown>(path, {
    method,
    headers: { 'Idempotency-Key': key },
    body,
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
};

type OutboxOptions = {
  db?: ClinicDatabase;
  send?: Send;
  /** Whether to try now: by default, unless the app knows it is offline (connection.ts; never navigator.onLine). */
  isOnline?: () => boolean;
};

/**
 * POSTs that wait in IndexedDB for the network, each sent exactly once:
 *
 * - a 2xx answer removes the entry and tells the user;
 * - a 4xx answer parks it (kept, never retried) and tells the user why;
 * - a 5xx answer or a network failure retries later with exponential backoff.
 *
 * Several tabs may drain at the same time: each entry is claimed (queued → sending) inside a
 * read-write transaction before it is sent, so only one drainer sends it. A claim older than
 * STALE_CLAIM_MS (its tab closed mid-send) can be claimed again; the server dedupes by
 * Idempotency-Key, which is the same on every attempt.
 */
export class Outbox {
  readonly #ownDb: ClinicDatabase | undefined;
  readonly #send: Send;
  readonly #isOnline: () => boolean;
  #draining: Promise<void> | null = null;
  #drainAgain = false;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor({ db, send = postWithKey, isOnline = () => !knownOffline() }: OutboxOptions = {}) {
    this.#ownDb = db;
    this.#send = send;
    this.#isOnline = isOnline;
  }

  /** The database given, else the app's (looked up on each use: it may have been closed and reopened). */
  get #db(): ClinicDatabase {
    return this.#ownDb ?? clinicDb();
  }

  /** Queues a request and schedules its sending. */
  async enqueue({
    key,
    path,
    body,
    method,
    label,
    sentText,
    refusedText,
    failedAttempts = 0,
  }: NewOutboxEntry): Promise<void> {
    const now = Date.now();
    const entry: OutboxEntry = {
      key,
      path,
      ...(method ? { method } : {}),
      ...(sentText ? { sentText } : {}),
      ...(refusedText ? { refusedText } : {}),
      body,
      label,
      state: 'queued',
      attempts: failedAttempts,
      nextAttemptAt: failedAttempts > 0 ? now + backoffDelay(failedAttempts) : now,
      claimedAt: null,
      claimId: null,
      error: null,
      createdAt: now,
    };
    await this.#db.transaction('rw', this.#db.outbox, async () => {
      await this.#db.outbox.add(entry);
      markOutboxPending();
    });
    if (failedAttempts > 0) await this.#scheduleNext();
    else void this.drain();
  }

  /** Sends every entry that is due; concurrent calls share one pass (and ask for another). */
  drain(): Promise<void> {
    if (this.#draining !== null) {
      this.#drainAgain = true;
      return this.#draining;
    }
    const run = async () => {
      try {
        do {
          this.#drainAgain = false;
          await this.#drainOnce().catch((cause: unknown) => console.error('The outbox could not be sent', cause));
        } while (this.#drainAgain);
      } finally {
        // In the same step as the last check: a drain asked for after it starts a new pass.
        this.#draining = null;
      }
    };
    this.#draining = run();
    return this.#draining;
  }

  /**
   * The connection is back: makes every queued entry due at once (their backoff was for a network
   * that is now there again) and drains.
   */
  async retryNow(): Promise<void> {
    const now = Date.now();
    await this.#db.outbox
      .where('state')
      .equals('queued')
      .and((entry) => entry.nextAttemptAt > now)
      .modify({ nextAttemptAt: now });
    return this.drain();
  }

  /** Entries still waiting (queued or being sent) and parked ones, oldest first. */
  async entries(): Promise<OutboxEntry[]> {
    const all = await this.#db.outbox.toArray();
    return all.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Forgets a parked entry (the user has read why it was refused). */
  async discard(key: string): Promise<void> {
    await this.#db.outbox
      .where('key')
      .equals(key)
      .and((entry) => entry.state === 'parked')
      .delete();
  }

  /** Stops the retry timer (until the next drain or enqueue sets it again). */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #drainOnce() {
    if (!this.#isOnline()) return; // watch-outbox.ts drains again when the connection is back
    const waiting = await this.#db.outbox.where('state').anyOf('queued', 'sending').sortBy('createdAt');
    for (const { key } of waiting) {
      const claimed = await this.#claim(key);
      if (claimed) await this.#deliver(claimed);
    }
    await this.#scheduleNext();
  }

  /** Takes the entry for this drainer if it is due and nobody (alive) is sending it; null otherwise. */
  #claim(key: string): Promise<OutboxEntry | null> {
    return this.#db.transaction('rw', this.#db.outbox, async () => {
      const entry = await this.#db.outbox.get(key);
      const now = Date.now();
      if (!entry) return null;
      const due = entry.state === 'queued' && entry.nextAttemptAt <= now;
      const abandoned = entry.state === 'sending' && (entry.claimedAt ?? 0) + STALE_CLAIM_MS <= now;
      if (!due && !abandoned) return null;
      const claim = { state: 'sending' as const, claimedAt: now, claimId: crypto.randomUUID() };
      await this.#db.outbox.update(key, claim);
      return { ...entry, ...claim };
    });
  }

  async #deliver(entry: OutboxEntry) {
    try {
      await this.#send({
        key: entry.key,
        path: entry.path,
        body: entry.body,
        ...(entry.method ? { method: entry.method } : {}),
      });
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.status >= 400 &&
        error.status < 500 &&
        !RETRYABLE_CLIENT_ERRORS.has(error.status)
      ) {
        const parked = await this.#releaseClaim(entry, { state: 'parked', error: error.message });
        if (parked) {
          notify.error(
            entry.refusedText ? `${entry.refusedText} ${error.message}` : parkedMessageText(entry.label, error.message),
          );
        }
      } else {
        const attempts = entry.attempts + 1;
        await this.#releaseClaim(entry, {
          state: 'queued',
          attempts,
          nextAttemptAt: Date.now() + backoffDelay(attempts),
        });
      }
      return;
    }
    await this.#db.outbox.delete(entry.key);
    notify.success(entry.sentText ?? QUEUED_MESSAGE_SENT_TEXT);
  }

  /** Ends this drainer's claim with `changes`, unless another drainer has taken the entry over since. */
  #releaseClaim(entry: OutboxEntry, changes: Partial<OutboxEntry>): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.outbox, async () => {
      const current = await this.#db.outbox.get(entry.key);
      if (current?.claimId !== entry.claimId) return false;
      await this.#db.outbox.update(entry.key, { ...changes, claimedAt: null, claimId: null });
      return true;
    });
  }

  /** Sets the timer for the next due entry (or a stale claim to take over); clears the flag when nothing waits. */
  async #scheduleNext() {
    const waiting = await this.#db.transaction('rw', this.#db.outbox, async () => {
      const rows = await this.#db.outbox.where('state').anyOf('queued', 'sending').toArray();
      // In the same transaction as the count, so an entry queued by another tab meanwhile keeps the flag.
      if (rows.length === 0) clearOutboxPending();
      return rows;
    });
    this.stop();
    if (waiting.length === 0) return;
    const nextAt = Math.min(
      ...waiting.map((entry) =>
        entry.state === 'queued' ? entry.nextAttemptAt : (entry.claimedAt ?? 0) + STALE_CLAIM_MS,
      ),
    );
    this.#timer = setTimeout(() => void this.drain(), Math.max(0, nextAt - Date.now()));
  }
}

let shared: Outbox | null = null;

/** This tab's outbox on the app's database (watch-outbox.ts drains it at start-up and when back online). */
export function sharedOutbox(): Outbox {
  shared ??= new Outbox();
  return shared;
}
