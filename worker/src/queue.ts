/**
 * The Worker's `queue` handler (wrangler.toml [[queues.consumers]]): delivers each domain event to
 * every consumer that reacts to its type, once per (event, consumer), and sends the messages the
 * outbox handed over. A failure retries the message with backoff; after the queue's last retry the
 * event lands in the dead-letter queue, whose consumer records it for the owner to replay.
 */
import { publishingConsumer } from './booking/publish.ts';
import { waitlistConsumer } from './booking/waitlist-consumer.ts';
import { messagesConsumer } from './messages/consumer.ts';
import type { OutboxRow } from './messages/data/outbox.ts';
import { enqueueDueMail, sendClaimed } from './messages/mail-outbox.ts';
import { moneyConsumer } from './money/consumer.ts';
import { clock } from './platform/clock.ts';
import { recordDead } from './platform/data/events.ts';
import type { Env } from './platform/env.ts';
import type { QueueMessage } from './platform/event-types.ts';
import { actingAt, type Consumer, deliverEvent, registerConsumers, relayEvents } from './platform/events.ts';

/** Every reaction to the engine's events (docs/architecture.md#domain-events). */
export const CONSUMERS: readonly Consumer[] = [messagesConsumer, moneyConsumer, waitlistConsumer, publishingConsumer];
registerConsumers(CONSUMERS);

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
            const delivered = await deliverEvent(env, body.seq);
            if (delivered && (!latest || delivered.at > latest)) latest = delivered.at;
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
