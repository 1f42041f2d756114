/**
 * The messages consumer (issue 44): what a patient is told when something happens to their visit.
 * Each event queues its mail (and text) in the outbox in one batch with the event's delivery row,
 * so a redelivered event queues nothing twice; the outbox's dedupe keys say the same again.
 */

import { bookingTimeOf } from '../booking/data/bookings.ts';
import type { EventRow } from '../platform/data/events.ts';
import type { Env } from '../platform/env.ts';
import type { Consumer, EventType } from '../platform/events.ts';
import { queueBookingMail, queueOfferMail, queuePaySoon, queueReceipt, queueRefundNotice } from './data/outbox.ts';
import { bookingCancelled, bookingConfirmed, bookingRescheduled } from './messages.ts';

interface Payload {
  by?: 'patient' | 'admin' | 'clinic' | 'offer';
  reason?: string | null;
  from?: { date: string; startMinute: number };
  transactionId?: string;
  change?: string;
}

/** The statements that queue what `event` tells its patient. */
async function newsOf(env: Env, event: EventRow, now: Date): Promise<D1PreparedStatement[]> {
  const payload = JSON.parse(event.payload) as Payload;
  const bookingId = event.booking_id ?? '';
  switch (event.type) {
    case 'booking.placed':
    case 'booking.moved': {
      const time = await bookingTimeOf(env.DB, bookingId);
      if (!time) return [];
      const to = { id: bookingId, appointmentDate: time.appointment_date, startMinute: time.start_minute };
      return [
        ...(event.type === 'booking.moved' && payload.from
          ? bookingRescheduled(env, { from: payload.from, to }, now)
          : bookingConfirmed(env, to, now)),
        queuePaySoon(env.DB, bookingId, now),
      ];
    }
    case 'booking.cancelled':
      return bookingCancelled(
        env,
        bookingId,
        { by: payload.by === 'patient' ? 'patient' : 'admin', reason: payload.reason ?? null },
        now,
      );
    case 'booking.released':
      return [
        queueBookingMail(env.DB, {
          kind: 'cancellation',
          dedupeKey: `cancellation:${bookingId}`,
          bookingId,
          now,
          extra: { by: 'unpaid' },
          onlyIf: "b.status != 'active'",
        }),
      ];
    case 'booking.stranded':
      return [
        queueBookingMail(env.DB, {
          kind: 'stranded',
          dedupeKey: `stranded:${bookingId}:${event.seq}`,
          bookingId,
          now,
          onlyIf: "b.status = 'active'",
        }),
      ];
    case 'booking.paid':
      return payload.transactionId ? [queueReceipt(env.DB, payload.transactionId, now)] : [];
    case 'booking.refunded':
      return payload.transactionId ? [queueRefundNotice(env.DB, payload.transactionId, now)] : [];
    case 'offer.made':
      return event.offer_id ? [queueOfferMail(env.DB, event.offer_id, now)] : [];
    case 'offer.withdrawn':
      return event.offer_id ? [queueOfferMail(env.DB, event.offer_id, now, 'offer_withdrawn')] : [];
    default:
      return [];
  }
}

const HANDLES: EventType[] = [
  'booking.placed',
  'booking.moved',
  'booking.cancelled',
  'booking.released',
  'booking.stranded',
  'booking.paid',
  'booking.refunded',
  'offer.made',
  'offer.withdrawn',
];

export const messagesConsumer: Consumer = {
  name: 'messages',
  handles: new Set(HANDLES),
  async handle(env, event, delivered, now) {
    await env.DB.batch([...(await newsOf(env, event, now)), delivered]);
  },
};
