/**
 * The rest of a deposit booking's price, taken at the front desk (issue 45): the deposit was paid
 * online; the desk takes the rest in cash or on the clinic's terminal. Recorded once, whatever the
 * clicks and the staff (its transaction id, and one live 'balance' payment per booking, migration
 * 0024), with its 'booking.paid' event (the messages consumer sends the receipt; the insights
 * forget the visit's day) and its audit row in the same batch.
 */
import type { DeskPaid } from '../../../contract/payments.ts';
import { type BookingRow, bookingName } from '../booking/data/bookings.ts';
import { paidEvent } from '../booking/engine/marks.ts';
import { money } from '../messages/mail-compose.ts';
import { isNoEmailAddress } from '../people/data/users.ts';
import { type Actor, auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';
import { insertBalancePayment, isPaymentRecorded } from './data/payments.ts';

/** The one transaction id of a booking's balance taken at the desk. */
const balanceTransactionId = (bookingId: string) => `desk_balance_${bookingId.replaceAll('-', '')}`;

export async function takeBalance(
  env: Env,
  admin: Actor,
  booking: BookingRow,
  method: 'cash' | 'card',
): Promise<DeskPaid> {
  const transactionId = balanceTransactionId(booking.id);
  const rest = booking.balance_due_cents;
  if (rest <= 0 && !(await isPaymentRecorded(env.DB, transactionId))) {
    throw new HttpError(409, 'This booking is already paid');
  }
  // A repeat finds nothing left: it names what the first took.
  const shown = rest > 0 ? rest : booking.price_cents - (booking.deposit_cents ?? 0);
  const paid = `${money(shown)}, the rest after the deposit, paid ${method === 'cash' ? 'in cash' : 'by card'} at the desk`;
  const answer: DeskPaid = {
    acknowledged: true,
    message: isNoEmailAddress(booking.email) ? paid : `${paid}; the receipt is on its way to ${booking.email}`,
    transactionId,
  };
  const [inserted] = await env.DB.batch([
    insertBalancePayment(env.DB, { transactionId, bookingId: booking.id, method }),
    paidEvent(env, booking.id, transactionId, admin),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'payment.succeeded',
        target: { type: 'booking', id: booking.id, name: bookingName(booking.id) },
        after: { transactionId, amount: shown / 100, currency: 'usd', method: `${method} at the desk`, balance: true },
      },
      IF_CHANGED,
    ),
  ]);
  if ((inserted?.meta.changes ?? 0) > 0) return answer;
  // A repeat (a double click, two staff at once) answers as the first did.
  if (await isPaymentRecorded(env.DB, transactionId)) return answer;
  throw new HttpError(409, 'This booking is already paid');
}
