/**
 * The Worker's `queue` handler (wrangler.toml [[queues.consumers]]): delivers each domain event to
 * every consumer that reacts to its type, once per (event, consumer), and sends the messages the
 * outbox handed over. A failure retries the message with backoff; after the queue's last retry the
 * event lands in the dead-letter queue, whose consumer records it for the owner to replay.
 */
import { waitlistConsumer } from './booking/waitlist-consumer.ts';
import { messagesConsumer } from './messages/consumer.ts';
import type { OutboxRow } from './messages/data/outbox.ts';
import { enqueueDueMail, sendClaimed } from './messages/mail-outbox.ts';
import { clock } from './platform/clock.ts';
import { deliveredTo, eventsBySeq, markDelivered, recordDead } from './platform/data/events.ts';
import { violates } from './platform/data/unique-constraint.ts';
import type { Env } from './platform/env.ts';
import { actingAt, type Consumer, type QueueMessage, relayEvents } from './platform/events.ts';

export const CONSUMERS: readonly Consumer[] = [messagesConsumer, waitlistConsumer];

const ONE_DELIVERY = { table: 'event_deliveries', columns: ['seq', 'consumer'] };

/**
 * Delivers event `seq` to each consumer of its type that has not had it. A consumer that fails
 * throws (the queue retries the event: those that succeeded are not asked again).
 */
export async function deliverEvent(env: Env, seq: number, consumers = CONSUMERS): Promise<Date | null> {
  const [event] = await eventsBySeq(env.DB, [seq]);
  if (!event) return null;
  const now = actingAt(event.at);
  const done = await deliveredTo(env.DB, seq);
  let failure: unknown = null;
  for (const consumer of consumers) {
    if (!consumer.handles.has(event.type) || done.has(consumer.name)) continue;
    try {
      await consumer.handle(env, event, markDelivered(env.DB, seq, consumer.name, now), now);
    } catch (error) {
      if (violates(error, ONE_DELIVERY)) continue; // another delivery of it got there first
      console.error(`event ${seq} (${event.type}) failed in ${consumer.name}`, error);
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return now;
}

/** Backoff of a retried message: 10 s, 20 s, 40 s … at most 10 minutes. */
export const retryDelay = (attempts: number) => Math.min(10 * 2 ** Math.max(0, attempts - 1), 600);

/** How many messages of a batch are handled side by side. */
const SIDE_BY_SIDE = 6;

export async function queue(batch: MessageBatch<QueueMessage>, env: Env, _ctx?: ExecutionContext): Promise<void> {
  if (batch.queue.endsWith('-dead')) {
    const now = clock();
    for (const message of batch.messages) {
      if ('seq' in message.body) await recordDead(env.DB, message.body.seq, message.attempts, now).run();
      message.ack();
    }
    return;
  }
  let latest: Date | null = null;
  const messages = [...batch.messages];
  for (let at = 0; at < messages.length; at += SIDE_BY_SIDE) {
    await Promise.all(
      messages.slice(at, at + SIDE_BY_SIDE).map(async (message) => {
        try {
          const body = message.body;
          if ('seq' in body) {
            const at = await deliverEvent(env, body.seq);
            if (at && (!latest || at > latest)) latest = at;
          } else {
            const { token, rows, at } = body.send;
            await sendClaimed(env, { token, rows: rows as OutboxRow[] }, actingAt(at));
          }
          message.ack();
        } catch {
          message.retry({ delaySeconds: retryDelay(message.attempts) });
        }
      }),
    );
  }
  // The consumers' own changes appended events (an offer made) and queued messages: hand them on.
  // The messages are acknowledged already: a failure here is the cron relay's to make good.
  if (latest) {
    try {
      await relayEvents(env, latest);
      await enqueueDueMail(env, latest);
    } catch (error) {
      console.error('handing on after a queue batch failed; the cron relays it', error);
    }
  }
}
