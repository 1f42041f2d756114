/**
 * The events of the booking engine's changes (platform/data/events.ts), each to put in the change's
 * batch right where this file says, so it is written exactly when the change happened.
 */

import type { Actor } from '../../platform/data/audit.ts';
import type { EventRow } from '../../platform/data/events.ts';
import { appendEvents } from '../../platform/data/events.ts';
import type { EventType } from '../../platform/event-types.ts';
import { offersStrandedWhere, type ScheduleChange, strandedWhere } from './strand.ts';

const SYSTEM: Actor = { system: 'system' };

/**
 * The event of a change to booking `bookingId`. `ifChanged`: put it right after the statement that
 * makes the change (its `changes()` decides; an audit row with IF_CHANGED may follow it, since this
 * insert changes a row exactly when that statement did). Otherwise it is written when the booking
 * exists at this point of the batch (after its insert).
 */
export function bookingEvent(
  db: D1Database,
  type: EventType,
  bookingId: string,
  {
    actor,
    at,
    payload,
    ifChanged = false,
    familyVisitId,
    offerId,
    returning = false,
  }: {
    actor: Actor;
    at: Date;
    payload?: Record<string, unknown>;
    ifChanged?: boolean;
    familyVisitId?: string;
    offerId?: string;
    /** Answer the event's seq (RETURNING). */
    returning?: boolean;
  },
): D1PreparedStatement {
  return appendEvents(db, {
    type,
    actor,
    at,
    rows: (p) => `bookings b WHERE b.id = ${p(bookingId)}${ifChanged ? ' AND changes() > 0' : ''}`,
    bookingId: 'b.id',
    version: 'b.version',
    familyVisitId: familyVisitId ? (p) => p(familyVisitId) : 'b.family_visit_id',
    offerId: offerId ? (p) => p(offerId) : undefined,
    ...(payload ? { payload } : {}),
    returning,
  });
}

/**
 * One 'booking.released' event per booking the release statements at `at` released (their
 * cancelled_at): put it after them. A booking is released once, so its event is written once.
 */
export function releasedEvents(db: D1Database, at: Date): D1PreparedStatement {
  return appendEvents(db, {
    type: 'booking.released',
    actor: SYSTEM,
    at,
    rows: (p) => `bookings b WHERE b.cancel_reason = 'unpaid' AND b.cancelled_at = ${p(at.toISOString())}
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.booking_id = b.id AND e.type = 'booking.released')`,
    bookingId: 'b.id',
    version: 'b.version',
    familyVisitId: 'b.family_visit_id',
  });
}

/** One 'booking.stranded' event per upcoming booking `change` strands that was not marked yet: put it before markStranded. */
export function strandedEvents(
  db: D1Database,
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
  actor: Actor,
): D1PreparedStatement {
  const { where, params } = strandedWhere(change, clock);
  return appendEvents(db, {
    type: 'booking.stranded',
    actor,
    at: clock.now,
    rows: (p) => {
      for (const value of params) p(value);
      return `bookings b WHERE b.needs_review = 0 AND ${where}`;
    },
    bookingId: 'b.id',
    version: 'b.version',
    familyVisitId: 'b.family_visit_id',
    payload: { change: change.kind },
  });
}

/** One 'offer.withdrawn' event per open offer `change` invalidates: put it before the withdrawal. */
export function withdrawnOfferEvents(
  db: D1Database,
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
  actor: Actor,
): D1PreparedStatement {
  const { where, params } = offersStrandedWhere(change, clock);
  return appendEvents(db, {
    type: 'offer.withdrawn',
    actor,
    at: clock.now,
    rows: (p) => {
      for (const value of params) p(value);
      return `waitlist_offers o WHERE ${where}`;
    },
    offerId: 'o.id',
    payload: { change: change.kind },
  });
}

/**
 * The event of a change to waitlist offer `offerId`: `ifChanged` (the default), right after the
 * statement that makes it (its `changes()` decides); otherwise when the offer exists (after its insert).
 */
export function offerEvent(
  db: D1Database,
  type: EventType,
  offerId: string,
  { actor, at, ifChanged = true }: { actor: Actor; at: Date; ifChanged?: boolean },
): D1PreparedStatement {
  return appendEvents(db, {
    type,
    actor,
    at,
    rows: (p) => `waitlist_offers o WHERE o.id = ${p(offerId)}${ifChanged ? ' AND changes() > 0' : ''}`,
    offerId: 'o.id',
  });
}

/**
 * The days an event touched: its booking's, the day a move came from, its offer's. None for an
 * event about no one day (a closure lifted): then every day may have changed.
 */
export async function datesOfEvent(db: D1Database, event: EventRow): Promise<string[]> {
  const row = await db
    .prepare(
      `SELECT (SELECT appointment_date FROM bookings WHERE id = ?1) AS booked,
              (SELECT day FROM waitlist_offers WHERE id = ?2) AS offered`,
    )
    .bind(event.booking_id, event.offer_id)
    .first<{ booked: string | null; offered: string | null }>();
  const from = (JSON.parse(event.payload || '{}') as { from?: { date?: unknown } }).from?.date;
  return [row?.booked, row?.offered, typeof from === 'string' ? from : null].filter(
    (date): date is string => typeof date === 'string',
  );
}
