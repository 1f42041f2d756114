import type { Consumer } from '../platform/events.ts';
import { offerFreedTimes } from './engine/offers.ts';

/**
 * The waitlist consumer: time that became free (a visit cancelled, released or moved away, an
 * offer declined or withdrawn, a closure lifted) is offered to the patients in line. Offering is
 * itself safe to repeat (each offer passes the placement check; one open offer per entry), so the
 * delivery row follows it.
 */
export const waitlistConsumer: Consumer = {
  name: 'waitlist',
  handles: new Set([
    'booking.cancelled',
    'booking.released',
    'booking.moved',
    'offer.declined',
    'offer.withdrawn',
    'offer.expired',
    'time.freed',
  ]),
  async handle(env, _event, delivered, now) {
    await offerFreedTimes(env, now);
    await delivered.run();
  },
};
