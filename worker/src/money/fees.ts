/**
 * No-show and late-cancel fees (issue 45). A booking made with a card on file keeps the fees its
 * patient accepted when booking; marking it missed, or the patient cancelling it after the free
 * window, appends an event whose money consumer charges the fee here, off-session, once: the fee
 * row is unique per booking and kind, and the provider is asked under the key
 * `fee:<booking id>:<kind>`, so a retry, a second delivery or twenty simultaneous marks charge
 * once. A card that is declined or needs its holder gets a mail with a pay link instead. The desk
 * may waive a fee with the mark (nothing is charged) or later (a charged fee is refunded).
 */
import { cardText, FEE_NAMES } from '../../../contract/cards.ts';
import type { Fee, FeeWaived } from '../../../contract/fees.ts';
import { bookingName } from '../booking/data/bookings.ts';
import { queueFeeMail } from '../messages/data/outbox.ts';
import { money } from '../messages/mail-compose.ts';
import { callerOf } from '../people/auth.ts';
import { cardsOf, customerOf } from '../people/data/cards.ts';
import type { User } from '../people/data/users.ts';
import { clock } from '../platform/clock.ts';
import { type Actor, auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { providerOf } from './choose-provider.ts';
import { type FeeKind, type FeeRow, feeById, feeOf, insertFee, settleFee, toFee, waiveFee } from './data/fees.ts';
import type { Payable, SavedCardOutcome } from './provider.ts';

/** The audit row of a fee's change, right after the statement that changed it. */
function feeAudit(
  db: D1Database,
  actor: Actor,
  fee: FeeRow,
  action: 'fee.charged' | 'fee.unpaid' | 'fee.paid' | 'fee.waived',
  after: Record<string, unknown>,
) {
  const name = bookingName(fee.booking_id);
  return auditEntry(
    db,
    {
      actor,
      action,
      target: { type: 'fee', id: fee.id, name: (param) => `${param(`${FEE_NAMES[fee.kind]}, `)} || ${name(param)}` },
      after: { amount: money(fee.amount_cents), ...after },
    },
    IF_CHANGED,
  );
}

/**
 * The consumer's part: the fee of `kind` for booking `bookingId`, charged to the account's newest
 * card (or waived, when the desk said so with the mark). Throws when the provider cannot be
 * reached: the event's delivery is retried and asks again under the same key.
 */
export async function chargeFee(
  env: Env,
  bookingId: string,
  kind: FeeKind,
  actor: Actor,
  waived: boolean,
): Promise<void> {
  const now = clock();
  await insertFee(env.DB, { bookingId, kind, status: waived ? 'waived' : 'charging' }, now).run();
  const fee = await feeOf(env.DB, bookingId, kind);
  if (fee?.status !== 'charging') return;
  const [card] = await cardsOf(env.DB, fee.account_id);
  const customer = await customerOf(env.DB, fee.account_id);
  const provider = card ? providerOf(env, card.provider) : null;
  const outcome: SavedCardOutcome =
    card && customer && provider
      ? await provider.chargeSaved({
          customerId: customer,
          paymentMethodId: card.payment_method_id,
          amountCents: fee.amount_cents,
          description: FEE_NAMES[kind],
          idempotencyKey: `fee:${bookingId}:${kind}`,
          metadata: { feeId: fee.id, bookingId },
        })
      : { status: 'declined', id: null, message: 'No card is on file any more' };
  const charged = outcome.status === 'succeeded';
  await env.DB.batch([
    settleFee(
      env.DB,
      fee.id,
      {
        status: charged ? 'charged' : 'unpaid',
        provider: charged && card ? card.provider : null,
        transactionId: outcome.id,
        card: charged && card ? card : null,
        failure: charged ? null : outcome.message,
      },
      now,
    ),
    feeAudit(
      env.DB,
      actor,
      fee,
      charged ? 'fee.charged' : 'fee.unpaid',
      charged && card ? { card: cardText(card) } : { why: outcome.status === 'succeeded' ? null : outcome.message },
    ),
    queueFeeMail(env.DB, fee.id, now),
  ]);
}

/**
 * A fee paid through its pay link (the demo's confirmation or Stripe's webhook): recorded once,
 * with its audit row and receipt.
 */
export async function recordFeePaid(
  env: Env,
  fee: FeeRow,
  payment: { provider: 'stripe' | 'demo'; transactionId: string; card: { brand: string; last4: string } | null },
  actor: Actor,
): Promise<boolean> {
  const now = clock();
  const [settled] = await env.DB.batch([
    settleFee(env.DB, fee.id, { status: 'paid', ...payment, failure: null }, now),
    feeAudit(env.DB, actor, fee, 'fee.paid', { transactionId: payment.transactionId }),
    queueFeeMail(env.DB, fee.id, now),
  ]);
  return (settled?.meta.changes ?? 0) > 0;
}

/**
 * POST /api/fees/:id/waive (admin): the fee is waived; one that was taken is refunded in full
 * through the provider that took it (asked under `fee-refund:<fee id>`, so a retry refunds once).
 * The patient gets one mail saying so; the audit trail has who waived it.
 */
export async function waiveFeeRoute(
  request: Request & { params: Record<string, string> },
  env: Env,
): Promise<Response> {
  const admin = callerOf(request);
  const fee = await feeById(env.DB, inputOf(request, 'POST /fees/:id/waive').params.id);
  if (!fee) throw new HttpError(404, 'No such fee');
  if (fee.status === 'waived') throw new HttpError(409, 'This fee is already waived');
  let refundId: string | null = null;
  const taken = fee.status === 'charged' || fee.status === 'paid';
  if (taken) {
    const provider = fee.provider ? providerOf(env, fee.provider) : null;
    if (!provider || !fee.transaction_id) {
      throw new HttpError(
        409,
        'This fee was paid through a provider this clinic cannot reach now; refund it from its dashboard',
      );
    }
    const refund = await provider.refund({
      transactionId: fee.transaction_id,
      amountCents: fee.amount_cents,
      bookingId: fee.booking_id,
      idempotencyKey: `fee-refund:${fee.id}`,
    });
    if (refund.status === 'failed')
      throw new HttpError(409, `The fee could not be refunded: ${refund.failure ?? 'the card issuer refused it'}`);
    refundId = refund.id ?? `refund:${fee.id}`;
  }
  const now = clock();
  const [waived] = await env.DB.batch([
    waiveFee(env.DB, fee.id, refundId, now),
    feeAudit(env.DB, admin, fee, 'fee.waived', { refunded: taken }),
    queueFeeMail(env.DB, fee.id, now),
  ]);
  if ((waived?.meta.changes ?? 0) === 0) throw new HttpError(409, 'This fee is already waived');
  const amount = money(fee.amount_cents);
  return json({
    acknowledged: true,
    refunded: taken,
    message: taken
      ? `Fee waived: ${amount} refunded to the patient's card`
      : 'Fee waived: the patient owes nothing for it',
  } satisfies FeeWaived);
}

/** What the pay link of an unpaid fee of the caller's pays (404 for anyone else's, 409 when nothing is left to pay). */
export async function feePayable(env: Env, user: User, feeId: string): Promise<Payable> {
  const fee = await feeById(env.DB, feeId);
  if (!fee || fee.account_id !== user.id) throw new HttpError(404, 'No such fee');
  if (fee.status !== 'unpaid') throw new HttpError(409, 'This fee has nothing left to pay');
  return {
    kind: 'fee',
    id: fee.id,
    priceCents: fee.amount_cents,
    email: user.email,
    description: FEE_NAMES[fee.kind],
    paymentIntentId: null,
    bookingIds: [],
  };
}

/**
 * Stripe's `payment_intent.succeeded` for a fee's pay link (metadata `feeId`): the fee is paid.
 * Null when the intent pays no fee of ours.
 */
export async function feeIntentSucceeded(
  env: Env,
  intent: { id: string; metadata?: Record<string, string> | null },
  card: { brand: string; last4: string } | null,
): Promise<boolean | null> {
  const fee = intent.metadata?.feeId ? await feeById(env.DB, intent.metadata.feeId) : null;
  if (!fee) return null;
  return recordFeePaid(env, fee, { provider: 'stripe', transactionId: intent.id, card }, { system: 'stripe' });
}

/** GET /api/fees/:id: a fee of the caller's account (its pay link's page), or any for an admin. */
export async function getFee(request: Request & { params: Record<string, string> }, env: Env): Promise<Response> {
  const user = callerOf(request);
  const fee = await feeById(env.DB, inputOf(request, 'GET /fees/:id').params.id);
  if (!fee || (fee.account_id !== user.id && user.role !== 'admin')) throw new HttpError(404, 'No such fee');
  return json(toFee(fee) satisfies Fee);
}
