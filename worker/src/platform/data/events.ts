/**
 * Domain events (issue 44, migration 0021): one row per change the booking engine makes, appended
 * in the change's own batch; handed to the queue by the relay; delivered once per consumer.
 */
import type { EventType } from '../event-types.ts';
import { type Actor, placeholders, type Sql } from './audit.ts';

/** How an event names who acted: 'system', 'stripe', or '<role>:<user id>'. */
export const actorOf = (actor: Actor): string => ('system' in actor ? actor.system : `${actor.role}:${actor.id}`);

/**
 * One event per row that `rows` selects (SQL after FROM, over the rows the change touched, as they
 * are at this point of the batch: put it after the change), so an event is written exactly when the
 * change happened. The columns are SQL over those rows: `bookingId: 'b.id'`, `version: 'b.version'`,
 * `payload`: a JSON object (small, no personal text).
 */
export function appendEvents(
  db: D1Database,
  event: {
    type: EventType;
    actor: Actor;
    at: Date;
    rows: Sql;
    bookingId?: string | Sql;
    familyVisitId?: string | Sql;
    offerId?: string | Sql;
    version?: string | Sql;
    payload?: Sql | Record<string, unknown>;
    /** Answer the seq of each event written (RETURNING). */
    returning?: boolean;
  },
): D1PreparedStatement {
  const { params, param } = placeholders();
  // The rows first: a `rows` that binds positional parameters of its own gets ?1, ?2 … in its order.
  const from = event.rows(param);
  const column = (value: string | Sql | undefined) =>
    value === undefined ? 'NULL' : typeof value === 'function' ? value(param) : value;
  const payload =
    event.payload === undefined
      ? "'{}'"
      : typeof event.payload === 'function'
        ? event.payload(param)
        : `json(${param(JSON.stringify(event.payload))})`;
  const sql = `INSERT INTO events (type, booking_id, family_visit_id, offer_id, version, actor, at, payload)
     SELECT ${param(event.type)}, ${column(event.bookingId)}, ${column(event.familyVisitId)}, ${column(event.offerId)},
       ${column(event.version)}, ${param(actorOf(event.actor))}, ${param(event.at.toISOString())}, ${payload}
     FROM ${from}${event.returning ? ' RETURNING seq' : ''}`;
  return db.prepare(sql).bind(...params);
}

/** 'time.freed' when the statement right before it changed anything (a closure lifted, offers withdrawn). */
export function timeFreedEvent(db: D1Database, actor: Actor, at: Date, payload?: Record<string, unknown>) {
  return appendEvents(db, {
    type: 'time.freed',
    actor,
    at,
    rows: () => '(SELECT 1) WHERE changes() > 0',
    ...(payload ? { payload } : {}),
  });
}

/** An event as the consumers read it. */
export interface EventRow {
  seq: number;
  type: EventType;
  booking_id: string | null;
  family_visit_id: string | null;
  offer_id: string | null;
  version: number | null;
  actor: string;
  at: string;
  payload: string;
}

export const eventsBySeq = async (db: D1Database, seqs: number[]): Promise<EventRow[]> =>
  seqs.length === 0
    ? []
    : (
        await db
          .prepare('SELECT * FROM events WHERE seq IN (SELECT value FROM json_each(?1)) ORDER BY seq')
          .bind(JSON.stringify(seqs))
          .all<EventRow>()
      ).results;

/**
 * Claims up to `limit` events for the queue: those nobody claimed, and (`staleBefore`) those claimed
 * before that instant whose send never happened. Claims go in `seq` order and writes are serial, so
 * the claimed events are always the first ones: the unclaimed are those past the highest claim. Answers their seqs (a claim is one row per event,
 * so two relays never both claim a new one).
 */
export async function claimForQueue(db: D1Database, now: Date, limit: number, staleBefore?: Date): Promise<number[]> {
  const at = now.toISOString();
  const statements = [
    db
      .prepare(
        `INSERT INTO event_dispatch (seq, claimed_at)
         SELECT e.seq, ?1 FROM events e WHERE e.seq > coalesce((SELECT max(seq) FROM event_dispatch), 0)
         ORDER BY e.seq LIMIT ?2
         ON CONFLICT (seq) DO NOTHING RETURNING seq`,
      )
      .bind(at, limit),
    ...(staleBefore
      ? [
          db
            .prepare(
              `UPDATE event_dispatch SET claimed_at = ?1
               WHERE seq IN (SELECT seq FROM event_dispatch WHERE sent_at IS NULL AND claimed_at < ?2 ORDER BY seq LIMIT ?3)
               RETURNING seq`,
            )
            .bind(at, staleBefore.toISOString(), limit),
        ]
      : []),
  ];
  const results = await db.batch<{ seq: number }>(statements);
  return results.flatMap((r) => r.results.map((row) => row.seq)).sort((a, b) => a - b);
}

/** The queue took these events. */
export const markSentToQueue = (db: D1Database, seqs: number[], now: Date) =>
  db
    .prepare('UPDATE event_dispatch SET sent_at = ?2 WHERE seq IN (SELECT value FROM json_each(?1))')
    .bind(JSON.stringify(seqs), now.toISOString());

/** The consumers that already handled event `seq`. */
export async function deliveredTo(db: D1Database, seq: number): Promise<Set<string>> {
  const { results } = await db
    .prepare('SELECT consumer FROM event_deliveries WHERE seq = ?1')
    .bind(seq)
    .all<{ consumer: string }>();
  return new Set(results.map((r) => r.consumer));
}

/**
 * Records that `consumer` handled event `seq`: put it in the same batch as the consumer's own
 * changes. A second delivery breaks the primary key, so that batch changes nothing.
 */
export const markDelivered = (db: D1Database, seq: number, consumer: string, now: Date) =>
  db
    .prepare('INSERT INTO event_deliveries (seq, consumer, delivered_at) VALUES (?1, ?2, ?3)')
    .bind(seq, consumer, now.toISOString());

/** The queue gave up on these events (its dead-letter queue): kept for the owner to see and replay. */
export const recordDead = (db: D1Database, seq: number, attempts: number, now: Date) =>
  db
    .prepare(
      `INSERT INTO dead_events (seq, failed_at, attempts) VALUES (?1, ?2, ?3)
       ON CONFLICT (seq) DO UPDATE SET failed_at = excluded.failed_at, attempts = excluded.attempts, replayed_at = NULL`,
    )
    .bind(seq, now.toISOString(), attempts);

/** The owner replays a dead event: it leaves the list and goes to the queue again. Answers whether it was dead. */
export const markReplayed = (db: D1Database, seq: number, now: Date) =>
  db
    .prepare('UPDATE dead_events SET replayed_at = ?2 WHERE seq = ?1 AND replayed_at IS NULL')
    .bind(seq, now.toISOString());

/** Whether event `seq` is on the dead list (given up on, not replayed since). */
export const isDead = async (db: D1Database, seq: number): Promise<boolean> =>
  (await db.prepare('SELECT 1 AS dead FROM dead_events WHERE seq = ?1 AND replayed_at IS NULL').bind(seq).first()) !==
  null;
