/**
 * Domain events and their queue (issue 44). The booking engine appends one event per change in the
 * change's own batch (platform/data/events.ts); after the answer, the relay here hands the new
 * events to the EVENTS queue (wrangler.toml), whose consumer (worker/src/queue.ts) delivers each to
 * every consumer that reacts to its type, once per (event, consumer). The Cron Trigger runs the same
 * relay, so an event committed by a Worker that died before enqueueing it is still delivered.
 */
import { clock } from './clock.ts';
import {
  claimForQueue,
  deliveredTo,
  type EventRow,
  eventsBySeq,
  markDelivered,
  markSentToQueue,
} from './data/events.ts';
import { violates } from './data/unique-constraint.ts';
import type { Env } from './env.ts';

import type { EventType, QueueMessage } from './event-types.ts';

export type { EventType };

/**
 * A reaction to events (mail and SMS, the waitlist, refunds …). `handle` makes its changes in one
 * batch that includes `delivered` (the (event, consumer) row): a second delivery of the event fails
 * on that row's primary key and changes nothing. Work outside the database (a mail, a provider's
 * refund) is keyed so that doing it again does it once.
 */
export interface Consumer {
  name: string;
  handles: ReadonlySet<EventType>;
  /** Reacts; what it answers (say, where a refund stands) is for a caller of deliverEvent that waits for it. */
  handle(env: Env, event: EventRow, delivered: D1PreparedStatement, now: Date): Promise<unknown>;
}

/**
 * The consumers, registered by the Worker's entry (worker/src/queue.ts) above every domain: the
 * domains below reach them only through deliverEvent, never by importing them.
 */
const registered: Consumer[] = [];
export function registerConsumers(consumers: readonly Consumer[]): void {
  registered.splice(0, registered.length, ...consumers);
}

const ONE_DELIVERY = { table: 'event_deliveries', columns: ['seq', 'consumer'] };

/**
 * Delivers event `seq` to each consumer of its type that has not had it (`only`: to that one
 * alone, now: a request that answers with its result). A consumer that fails makes it throw once
 * the others have had their turn (the queue retries the event; those that succeeded are not asked
 * again). Answers the instant the consumers acted at and what each answered.
 */
export async function deliverEvent(
  env: Env,
  seq: number,
  only?: string,
): Promise<{ at: Date; answers: Map<string, unknown> } | null> {
  const [event] = await eventsBySeq(env.DB, [seq]);
  if (!event) return null;
  const now = actingAt(event.at);
  const done = await deliveredTo(env.DB, seq);
  const answers = new Map<string, unknown>();
  let failure: unknown = null;
  for (const consumer of registered) {
    if (only !== undefined && consumer.name !== only) continue;
    if (!consumer.handles.has(event.type) || done.has(consumer.name)) continue;
    try {
      answers.set(
        consumer.name,
        await consumer.handle(env, event, markDelivered(env.DB, seq, consumer.name, now), now),
      );
    } catch (error) {
      if (violates(error, ONE_DELIVERY)) continue; // another delivery of it got there first
      console.error(`event ${seq} (${event.type}) failed in ${consumer.name}`, error);
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return { at: now, answers };
}

/**
 * The instant a consumer acts at: now, or the instant of what it reacts to when that is later (a
 * clock pinned ahead for the browser tests: platform/clock.ts), so a reaction never runs before its cause.
 */
export const actingAt = (at: string): Date => new Date(Math.max(Date.parse(at) || 0, clock().getTime()));

/** How many messages go in one sendBatch (the queue's limit is 100). */
const SEND_BATCH = 100;
/** A claim this old whose send never happened is the relay's to send again. */
export const RELAY_AFTER_MS = 60_000;

/** Sends `bodies` to the queue, in batches the queue accepts. */
export async function enqueue(env: Env, bodies: QueueMessage[]): Promise<void> {
  for (let at = 0; at < bodies.length; at += SEND_BATCH) {
    await env.EVENTS.sendBatch(bodies.slice(at, at + SEND_BATCH).map((body) => ({ body, contentType: 'json' })));
  }
}

/**
 * Hands the events nobody has handed to the queue yet (and, from the cron, those whose hand-over
 * was claimed over a minute ago and never done) to the queue, up to `limit`; answers how many.
 */
export async function relayEvents(
  env: Env,
  now: Date,
  { limit = 1000, stale = false }: { limit?: number; stale?: boolean } = {},
): Promise<number> {
  let relayed = 0;
  while (relayed < limit) {
    const seqs = await claimForQueue(
      env.DB,
      now,
      Math.min(500, limit - relayed),
      stale ? new Date(now.getTime() - RELAY_AFTER_MS) : undefined,
    );
    if (seqs.length === 0) break;
    await enqueue(
      env,
      seqs.map((seq) => ({ seq })),
    );
    await markSentToQueue(env.DB, seqs, now).run();
    relayed += seqs.length;
    stale = false;
  }
  return relayed;
}
