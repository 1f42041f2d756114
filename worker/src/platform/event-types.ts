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
  'offer.made',
  'offer.accepted',
  'offer.declined',
  'offer.expired',
  'offer.withdrawn',
  'waitlist.left',
  'time.freed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
