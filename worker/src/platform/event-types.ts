/** The kinds of domain events the booking engine appends (docs/architecture.md lists who reacts to each). */
export const EVENT_TYPES = [
  'booking.placed',
  'booking.moved',
  'booking.cancelled',
  'booking.released',
  'booking.paid',
  'booking.refunded',
  'booking.attended',
  'booking.no_show',
  'booking.kept',
  'booking.stranded',
  'booking.confirmed',
  'booking.callback',
  'booking.noted',
  'booking.form_answered',
  'offer.made',
  'offer.accepted',
  'offer.declined',
  'offer.expired',
  'offer.withdrawn',
  'waitlist.left',
  'time.freed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What travels on the EVENTS queue: an event to deliver, or messages (outbox rows, claimed with `token`) to send. */
export type QueueMessage = { seq: number } | { send: { token: string; at: string; rows: OutboxMessage[] } };

/** A message of the outbox as the sender needs it (messages/data/outbox.ts OutboxRow). */
export interface OutboxMessage {
  id: string;
  kind: string;
  recipient: string;
  data: string;
  attempts: number;
  channel: 'mail' | 'sms';
  /** 1 when it is a reminder whose booking is no longer active at its version and time, or a recall message no longer wanted: not to be sent. */
  stale: number;
}
