import type { AuditAction } from '../../../../contract/audit.ts';
import { paidWithText } from '../../../../contract/cards.ts';
import type { Receipt, RefundDue, RefundStatus } from '../../../../contract/payments.ts';
import { ACCOUNT_OF_B, BALANCE_DUE } from '../../booking/data/bookings.ts';
import { displayDate } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import { type Actor, auditEntry, type Sql } from '../../platform/data/audit.ts';
import { appendEvents } from '../../platform/data/events.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

/** A Stripe event is handled once: its id is the primary key of stripe_events. */
export const STRIPE_EVENT_ONCE: UniqueConstraint = { table: 'stripe_events', columns: ['id'] };

/** Why a recorded payment is given back (payments.refund_reason); 'cancelled': its paid booking was cancelled and refunded. */
export type RefundReason = 'booking_not_active' | 'already_paid' | 'amount_differs' | 'other_intent' | 'cancelled';

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Records that a Stripe event was handled; put it in the batch of its effect, so a second delivery fails the batch. */
export function recordStripeEvent(
  db: D1Database,
  event: { id: string; type: string; created: number },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO stripe_events (id, type, created) VALUES (?1, ?2, ?3)')
    .bind(event.id, event.type, event.created);
}

export interface SucceededPayment {
  /** The provider's payment id; for a line of a family visit's payment, the line's (`lineId`). */
  transactionId: string;
  /** Set for a line of a family visit's payment: the provider's payment it is part of. */
  intentId?: string;
  bookingId: string;
  amountCents: number;
  currency: string;
  provider: 'stripe' | 'demo' | 'desk';
  /** At the front desk: in cash or by card on the clinic's terminal. */
  method?: 'cash' | 'card';
  /** The card that paid, where the provider tells it. */
  card?: { brand: string; last4: string } | null;
}

/** The id of a family visit payment's line for one booking, which that booking waits for (bookings.payment_intent_id). */
export const lineId = (intentId: string, bookingId: string) => `${intentId}:${bookingId}`;

/**
 * Records a provider-confirmed payment of a booking once per transaction (a repeat changes nothing
 * but fills in the card when it was not known), with its money. Unless it can pay the booking (its
 * own intent, for its price, the booking active and unpaid) it is given back: refunded through the
 * provider ('pending') when the booking is no longer active, else flagged 'due' for the clinic,
 * with the reason. The decision is made in the statement, so a cancellation in the same batch or
 * racing it cannot slip between check and write.
 */
export function insertPayment(db: D1Database, payment: SucceededPayment): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, currency, provider, method, refund_status,
         refund_reason, refund_amount_cents, refund_updated_at, card_brand, card_last4, intent_id)
       SELECT ?1, ?2, id, email, ?3, ?6, ?4, ?9,
         CASE WHEN reason IS NULL THEN NULL WHEN reason = 'booking_not_active' THEN 'pending' ELSE 'due' END, reason,
         CASE WHEN reason IS NULL THEN NULL ELSE ?3 END, CASE WHEN reason IS NULL THEN NULL ELSE ${NOW} END, ?7, ?8, ?10
       FROM (
         SELECT b.id, b.email,
           CASE
             WHEN b.status != 'active' THEN 'booking_not_active'
             WHEN b.paid = 1 THEN 'already_paid'
             -- A deposit booking takes its deposit online, or its whole price (at the desk).
             WHEN (b.price_cents != ?3 AND coalesce(b.deposit_cents, b.price_cents) != ?3) OR ?6 != 'usd' THEN 'amount_differs'
             WHEN b.payment_intent_id IS NOT ?2 THEN 'other_intent'
           END AS reason
         FROM bookings b WHERE b.id = ?5
       ) WHERE true
       ON CONFLICT (transaction_id) DO UPDATE SET card_brand = excluded.card_brand, card_last4 = excluded.card_last4
         WHERE payments.card_last4 IS NULL AND excluded.card_last4 IS NOT NULL`,
    )
    .bind(
      crypto.randomUUID(),
      payment.transactionId,
      payment.amountCents,
      payment.provider,
      payment.bookingId,
      payment.currency,
      payment.card?.brand ?? null,
      payment.card?.last4 ?? null,
      payment.method ?? null,
      payment.intentId ?? null,
    );
}

/**
 * SQL for the audit trail, read in the recording batch: whether the payment of `transactionId` is
 * owed back, and why (its refund_reason).
 */
export function refundDueOf(transactionId: string): { isDue: Sql; reason: Sql } {
  return {
    isDue: (param) =>
      `EXISTS (SELECT 1 FROM payments WHERE transaction_id = ${param(transactionId)} AND refund_reason IS NOT NULL)`,
    reason: (param) => `(SELECT refund_reason FROM payments WHERE transaction_id = ${param(transactionId)})`,
  };
}

export interface PaymentStateRow {
  refund_reason: RefundReason | null;
  refund_status: RefundStatus | null;
  /** The status of its booking (null when the booking is gone). */
  status: string | null;
}

/** A recorded payment's refund reason and state, and its booking's status (read at the end of the recording batch). */
export function paymentStateQuery(db: D1Database, transactionId: string): D1PreparedStatement {
  return db
    .prepare(
      'SELECT p.refund_reason, p.refund_status, b.status FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id WHERE p.transaction_id = ?1',
    )
    .bind(transactionId);
}

/**
 * Puts the payment that paid booking ?1 up for a full refund, reason 'cancelled', once the booking
 * is cancelled: put it in the cancelling batch, after the cancellation. A payment online is asked
 * of its provider ('pending'); one taken at the front desk is given back there by hand ('due'). A
 * payment already given back (or none) changes nothing, so a second cancel asks for nothing twice.
 * Answers the payment's transaction_id when it was put up.
 */
export function refundPaymentOfCancelledBooking(db: D1Database, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE payments SET refund_status = CASE provider WHEN 'desk' THEN 'due' ELSE 'pending' END,
         refund_reason = 'cancelled', refund_amount_cents = amount_cents,
         refund_updated_at = ${NOW}
       WHERE booking_id = ?1 AND refund_status IS NULL
         AND EXISTS (SELECT 1 FROM bookings b WHERE b.id = ?1 AND b.status = 'cancelled')
       RETURNING transaction_id`,
    )
    .bind(bookingId);
}

export interface RefundToSend {
  transaction_id: string;
  /** The provider's payment to refund (a family visit's, for one of its lines). */
  provider_payment: string;
  booking_id: string | null;
  amount_cents: number;
  currency: string;
  provider: 'stripe' | 'demo';
  /** The intent the booking waited for: its own payment is refunded under the key `refund:<booking id>`. */
  booking_intent: string | null;
}

/** Refunds asked for and not yet answered by the provider (of one booking, one payment, or all), oldest first. */
export async function refundsToSend(
  db: D1Database,
  only: { bookingId: string } | { transactionId: string } | 'all',
): Promise<RefundToSend[]> {
  const [where, value] =
    only === 'all'
      ? ['?1 IS NULL', null]
      : 'bookingId' in only
        ? ['p.booking_id = ?1', only.bookingId]
        : ['p.transaction_id = ?1', only.transactionId];
  const { results } = await db
    .prepare(
      `SELECT p.transaction_id, coalesce(p.intent_id, p.transaction_id) AS provider_payment, p.booking_id, coalesce(p.refund_amount_cents, p.amount_cents) AS amount_cents, p.currency,
         p.provider, b.payment_intent_id AS booking_intent
       FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id
       WHERE p.refund_status = 'pending' AND p.refund_id IS NULL AND ${where}
       ORDER BY p.created_at, p.id`,
    )
    .bind(value)
    .all<RefundToSend>();
  return results;
}

/** A refund's state as the provider tells it (its answer, or a webhook). */
export interface RefundUpdate {
  transactionId: string;
  status: Exclude<RefundStatus, 'due'>;
  refundId: string | null;
  amountCents: number | null;
  /** Why it failed, in plain words. */
  failure: string | null;
}

/** SQL: the order a refund's states come in; it never moves back. */
const rank = (status: string) =>
  `CASE ${status} WHEN 'pending' THEN 1 WHEN 'succeeded' THEN 2 WHEN 'failed' THEN 3 ELSE 0 END`;

/**
 * Moves a payment's refund forward to `update.status` (NULL/'due' -> pending -> succeeded ->
 * failed), never back: a late 'pending' after 'succeeded' changes nothing. At the same state it
 * only learns the refund's id. Put both statements in one batch (with the webhook's event id when
 * there is one): the first writes the audit row, by `actor`, only when the state moves. The last
 * statement's result is the payment's update.
 */
export function advanceRefund(db: D1Database, update: RefundUpdate, actor: Actor): D1PreparedStatement[] {
  const moves: Sql = (param) =>
    `EXISTS (SELECT 1 FROM payments WHERE transaction_id = ${param(update.transactionId)}
       AND ${rank('refund_status')} < ${rank(param(update.status))})`;
  const statusNow: Sql = (param) =>
    `(SELECT refund_status FROM payments WHERE transaction_id = ${param(update.transactionId)})`;
  const { status, failure } = update;
  return [
    auditEntry(
      db,
      {
        actor,
        action: REFUND_ACTIONS[status],
        target: { type: 'payment', id: update.transactionId, name: paymentName(update.transactionId) },
        before: { refundStatus: statusNow },
        after: { refundStatus: status, ...(status === 'failed' ? { failure } : {}) },
      },
      moves,
    ),
    db
      .prepare(
        `UPDATE payments SET refund_status = ?2, refund_id = coalesce(refund_id, ?3),
           refund_amount_cents = coalesce(?4, refund_amount_cents, amount_cents),
           refund_failure = CASE WHEN ?2 = 'failed' THEN ?5 ELSE refund_failure END, refund_updated_at = ${NOW}
         WHERE transaction_id = ?1 AND (${rank('refund_status')} < ${rank('?2')}
           OR (refund_status = ?2 AND refund_id IS NULL AND ?3 IS NOT NULL))`,
      )
      .bind(update.transactionId, update.status, update.refundId, update.amountCents, update.failure),
    // The money is back: the patient hears of it (the messages consumer).
    ...(update.status === 'succeeded'
      ? [
          appendEvents(db, {
            type: 'booking.refunded',
            actor,
            at: clock(),
            rows: (param) =>
              `payments p WHERE p.transaction_id = ${param(update.transactionId)} AND p.booking_id IS NOT NULL
                 AND p.refund_status = 'succeeded' AND changes() > 0`,
            bookingId: 'p.booking_id',
            payload: (param) => `json_object('transactionId', ${param(update.transactionId)})`,
          }),
        ]
      : []),
  ];
}

/** The audit trail's action for each state a refund moves to. */
const REFUND_ACTIONS = {
  pending: 'payment.refund_requested',
  succeeded: 'payment.refunded',
  failed: 'payment.refund_failed',
} as const satisfies Record<RefundUpdate['status'], AuditAction>;

/** SQL: a payment's name in the audit trail, its booking's (or its email when it has none). */
const paymentName =
  (transactionId: string): Sql =>
  (param) =>
    `(SELECT coalesce(b.patient_name || ': ' || b.treatment || ', ' || b.appointment_date || ', ' || b.slot, p.email)
      FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id WHERE p.transaction_id = ${param(transactionId)})`;

/** A payment's refund state and amount, to answer with. */
export function refundStateOf(
  db: D1Database,
  transactionId: string,
): Promise<{ refund_status: RefundStatus | null; refund_amount_cents: number | null; currency: string } | null> {
  return db
    .prepare('SELECT refund_status, refund_amount_cents, currency FROM payments WHERE transaction_id = ?1')
    .bind(transactionId)
    .first();
}

/** What a demo refund of Stripe's test card 4000 0000 0000 5126 does: it succeeds, and fails a while later. */
export const DEMO_LATE_FAILING_CARD = '5126';

/** The demo provider's refunds that fail late (Stripe's 5126 test card): the Cron Trigger's sweep fails them. */
export async function lateFailingDemoRefunds(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT transaction_id FROM payments WHERE refund_status = 'succeeded' AND provider = 'demo' AND card_last4 = ?1`,
    )
    .bind(DEMO_LATE_FAILING_CARD)
    .all<{ transaction_id: string }>();
  return results.map((row) => row.transaction_id);
}

/** Whether the provider's payment `transactionId` is recorded (itself, or a family visit's lines of it). */
export async function isPaymentRecorded(db: D1Database, transactionId: string): Promise<boolean> {
  return (
    (await db
      .prepare('SELECT 1 FROM payments WHERE transaction_id = ?1 OR intent_id = ?1 LIMIT 1')
      .bind(transactionId)
      .first()) !== null
  );
}

/**
 * The recorded payments a provider's refund of `intentId` concerns: the payment itself, or, for a
 * family visit's payment, the line of the booking the refund names (every line when it names none:
 * the whole payment was refunded; none when it names another booking).
 */
export async function refundedLines(db: D1Database, intentId: string, bookingId: string | null): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT transaction_id, booking_id FROM payments WHERE intent_id = ?1 ORDER BY created_at, id')
    .bind(intentId)
    .all<{ transaction_id: string; booking_id: string | null }>();
  if (results.length === 0) return [intentId];
  return results.filter((line) => !bookingId || line.booking_id === bookingId).map((line) => line.transaction_id);
}

/** The reason in plain words, for the admin and the patient. */
export function refundReasonText(reason: string | null, bookingStatus: string | null): string {
  switch (reason) {
    case 'booking_not_active':
      return bookingStatus && bookingStatus !== 'active'
        ? `The booking was ${bookingStatus} before the payment arrived`
        : 'The booking was no longer active when the payment arrived';
    case 'already_paid':
      return 'The booking was already paid';
    case 'amount_differs':
      return 'The amount paid differs from the booking’s price';
    case 'other_intent':
      return 'The payment is not the one the booking was waiting for';
    case 'cancelled':
      return 'The paid booking was cancelled';
    default:
      return 'The payment cannot be applied to its booking';
  }
}

interface RefundRow {
  id: string;
  transaction_id: string;
  booking_id: string | null;
  email: string;
  amount_cents: number;
  currency: string;
  provider: string;
  created_at: string;
  refund_status: RefundStatus;
  refund_reason: string | null;
  refund_failure: string | null;
  patient_name: string | null;
  treatment: string | null;
  appointment_date: string | null;
  slot: string | null;
  booking_status: string | null;
  method: string | null;
  card_brand: string | null;
  card_last4: string | null;
  payer: string | null;
}

const toRefundDue = (row: RefundRow): RefundDue => ({
  _id: row.id,
  transactionId: row.transaction_id,
  provider: row.provider,
  amount: row.amount_cents / 100,
  currency: row.currency,
  paidAt: row.created_at,
  refundStatus: row.refund_status,
  reason: refundReasonText(row.refund_reason, row.booking_status),
  failure: row.refund_failure,
  patientName: row.patient_name,
  email: row.email,
  payer: row.payer,
  paidWith: paidWithText(row),
  bookingId: row.booking_id,
  treatment: row.treatment,
  appointmentDate: row.appointment_date ? displayDate(row.appointment_date) : null,
  slot: row.slot,
  bookingStatus: row.booking_status,
});

/**
 * Payments given back or to give back, with what is left of their booking: those the clinic must
 * act on first ('due', 'failed'), then those on their way ('pending'), then the refunded; oldest first.
 */
export async function refundsDue(db: D1Database, paymentId: string | null = null): Promise<RefundDue[]> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.transaction_id, p.booking_id, p.email, p.amount_cents, p.currency, p.provider, p.created_at,
         p.refund_status, p.refund_reason, p.refund_failure, p.method, p.card_brand, p.card_last4, b.patient_name,
         b.treatment, b.appointment_date, b.slot, b.status AS booking_status,
         (SELECT coalesce(g.name, u.name) FROM users u LEFT JOIN users g ON g.id = u.guardian_id WHERE u.id = b.user_id) AS payer
       FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id
       WHERE p.refund_status IS NOT NULL AND (?1 IS NULL OR p.id = ?1)
       ORDER BY CASE p.refund_status WHEN 'pending' THEN 1 WHEN 'succeeded' THEN 2 ELSE 0 END, p.created_at, p.id`,
    )
    .bind(paymentId)
    .all<RefundRow>();
  return results.map(toRefundDue);
}

export interface ReceiptRow {
  booking_id: string;
  user_id: string;
  /** The account that booked it: the patient's, or their guardian's. */
  account_id: string;
  treatment: string;
  appointment_date: string;
  slot: string;
  patient_name: string;
  email: string;
  booking_status: string;
  transaction_id: string | null;
  amount_cents: number;
  currency: string;
  provider: string;
  method: 'cash' | 'card' | null;
  created_at: string;
  card_brand: string | null;
  card_last4: string | null;
  refund_status: RefundStatus | null;
  refund_amount_cents: number | null;
}

/**
 * A booking in any state with its payment: the one that paid it (refunded since or not), else the
 * latest that arrived for it. `transaction_id` is null when nothing was paid.
 */
export function receiptOf(db: D1Database, bookingId: string): Promise<ReceiptRow | null> {
  return db
    .prepare(
      `SELECT b.id AS booking_id, b.user_id, ${ACCOUNT_OF_B}, b.treatment, b.appointment_date, b.slot, b.patient_name, b.email,
         b.status AS booking_status, coalesce(p.intent_id, p.transaction_id) AS transaction_id, p.amount_cents, p.currency,
         p.provider, p.method, p.created_at, p.card_brand, p.card_last4, p.refund_status, p.refund_amount_cents
       FROM bookings b LEFT JOIN payments p ON p.id = (
         SELECT id FROM payments WHERE booking_id = b.id
         ORDER BY (refund_reason IS NULL OR refund_reason = 'cancelled') DESC, created_at DESC, id LIMIT 1)
       WHERE b.id = ?1`,
    )
    .bind(bookingId)
    .first<ReceiptRow>();
}

export const toReceipt = (row: ReceiptRow & { transaction_id: string }): Receipt => ({
  bookingId: row.booking_id,
  treatment: row.treatment,
  appointmentDate: displayDate(row.appointment_date),
  slot: row.slot,
  patientName: row.patient_name,
  email: row.email,
  bookingStatus: row.booking_status,
  amount: row.amount_cents / 100,
  currency: row.currency,
  paidAt: row.created_at,
  transactionId: row.transaction_id,
  provider: row.provider,
  method: row.method,
  card: row.card_brand && row.card_last4 ? { brand: row.card_brand, last4: row.card_last4 } : null,
  refund: row.refund_status
    ? {
        status: row.refund_status,
        amount: (row.refund_amount_cents ?? row.amount_cents) / 100,
        currency: row.currency,
      }
    : null,
});

/**
 * The rest of a deposit booking's price (BALANCE_DUE), taken at the front desk (migration 0024):
 * recorded once (its transaction id, and one live 'balance' payment per booking), only while
 * something is left and the visit is on. 0 changes: recorded already, or nothing is left to take.
 */
export function insertBalancePayment(
  db: D1Database,
  balance: { transactionId: string; bookingId: string; method: 'cash' | 'card' },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, currency, provider, method, purpose)
       SELECT ?1, ?2, b.id, b.email, ${BALANCE_DUE('b')}, 'usd', 'desk', ?4, 'balance'
       FROM bookings b WHERE b.id = ?3 AND ${BALANCE_DUE('b')} > 0 AND b.status IN ('active', 'attended')
       ON CONFLICT DO NOTHING`,
    )
    .bind(crypto.randomUUID(), balance.transactionId, balance.bookingId, balance.method);
}
