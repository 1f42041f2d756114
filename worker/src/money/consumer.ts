/**
 * The money consumer (issue 44): a paid visit cancelled with its refund is refunded here, once per
 * event: the payment is put up for its refund in one batch with the event's delivery row, then the
 * provider is asked under the key `refund:<booking id>`, so asking again (a retry, the cron's sweep)
 * gives the money back once. A cancellation that keeps the money (`refund: false`) changes nothing.
 * A no-show, or a patient's late cancellation (`lateFee`), charges the fee the patient accepted
 * when booking, once (money/fees.ts).
 */
import type { RefundState } from '../../../contract/payments.ts';
import { userById } from '../people/data/users.ts';
import type { Actor } from '../platform/data/audit.ts';
import type { Consumer } from '../platform/events.ts';
import { chargeFee } from './fees.ts';
import { refundOfCancelledBooking } from './refunds.ts';

/** Who an event names ('system', 'stripe', '<role>:<user id>') as the audit trail names them. */
async function actorNamed(db: D1Database, named: string): Promise<Actor> {
  const [role, id] = named.split(':');
  if (!id) return { system: role === 'stripe' ? 'stripe' : 'system' };
  const user = await userById(db, id);
  return { id, email: user?.email ?? '', role: role === 'admin' ? 'admin' : 'patient' };
}

export const moneyConsumer: Consumer = {
  name: 'money',
  handles: new Set(['booking.cancelled', 'booking.no_show']),
  async handle(env, event, delivered): Promise<RefundState | null> {
    const { refund, lateFee, waiveFee } = JSON.parse(event.payload) as {
      refund?: boolean;
      lateFee?: boolean;
      waiveFee?: boolean;
    };
    // A missed visit, or a late cancellation, charges the fee its patient accepted (money/fees.ts).
    if (event.booking_id && (event.type === 'booking.no_show' || lateFee)) {
      const kind = event.type === 'booking.no_show' ? 'no_show' : 'late_cancel';
      await chargeFee(env, event.booking_id, kind, await actorNamed(env.DB, event.actor), waiveFee === true);
    }
    if (!refund || !event.booking_id) {
      await delivered.run();
      return null;
    }
    const refunding = refundOfCancelledBooking(env, event.booking_id, await actorNamed(env.DB, event.actor));
    const results = await env.DB.batch([...refunding.statements, delivered]);
    return refunding.settle(results);
  },
};
