import type { RefundDue } from '../../../contract/payments.ts';
import { displayDate } from '../clinic-time.ts';
import type { Sql } from './audit.ts';
import type { UniqueConstraint } from './unique-constraint.ts';

/** A Stripe event is handled once: its id is the primary key of stripe_events. */
export const STRIPE_EVENT_ONCE: UniqueConstraint = { table: 'stripe_events', columns: ['id'] };

/** Why a recorded payment is owed back (payments.refund_reason). */
export type RefundReason =
  | 'booking_not_active'
  | 'already_paid'
  | 'amount_differs'
  | 'other_intent'
  | 'cancelled_by_clinic';

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
  transactionId: string;
  bookingId: string;
  amountCents: number;
  currency: string;
  provider: 'stripe' | 'demo';
}

/**
 * Records a provider-confirmed payment of a booking once per transaction (a repeat changes nothing),
 * with its money. It is flagged as owed back ('due', with the reason) unless it can pay the
 * booking: its own intent, for its price, the booking active and unpaid. The decision is made in
 * the statement, so a cancellation in the same batch or racing it cannot slip between check and write.
 */
export function insertPayment(db: D1Database, payment: SucceededPayment): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, currency, provider, refund_status, refund_reason)
       SELECT ?1, ?2, id, email, ?3, ?6, ?4, CASE WHEN reason IS NULL THEN NULL ELSE 'due' END, reason
       FROM (
         SELECT b.id, b.email,
           CASE
             WHEN b.status != 'active' THEN 'booking_not_active'
             WHEN b.paid = 1 THEN 'already_paid'
             WHEN b.price_cents != ?3 OR ?6 != 'usd' THEN 'amount_differs'
             WHEN b.payment_intent_id IS NOT ?2 THEN 'other_intent'
           END AS reason
         FROM bookings b WHERE b.id = ?5
       ) WHERE true
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      crypto.randomUUID(),
      payment.transactionId,
      payment.amountCents,
      payment.provider,
      payment.bookingId,
      payment.currency,
    );
}

/** Flags the payment of a booking the clinic cancelled as owed back (put it after the cancel; nothing when it was not cancelled). */
export function markRefundDueOnCancel(db: D1Database, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE payments SET refund_status = 'due', refund_reason = 'cancelled_by_clinic'
       WHERE booking_id = ?1 AND refund_status IS NULL
         AND EXISTS (SELECT 1 FROM bookings b WHERE b.id = ?1 AND b.status = 'cancelled' AND b.cancel_reason = 'admin')`,
    )
    .bind(bookingId);
}

/** SQL for the audit trail: the transaction of the payment a clinic cancellation flagged for a refund. */
export const refundedTransaction =
  (bookingId: string): Sql =>
  (param) =>
    `(SELECT transaction_id FROM payments WHERE booking_id = ${param(bookingId)} AND refund_reason = 'cancelled_by_clinic')`;

/**
 * SQL for the audit trail, read in the recording batch: whether the payment of `transactionId` is
 * owed back, and why (its refund_reason).
 */
export function refundDueOf(transactionId: string): { isDue: Sql; reason: Sql } {
  return {
    isDue: (param) =>
      `EXISTS (SELECT 1 FROM payments WHERE transaction_id = ${param(transactionId)} AND refund_status = 'due')`,
    reason: (param) => `(SELECT refund_reason FROM payments WHERE transaction_id = ${param(transactionId)})`,
  };
}

export interface PaymentStateRow {
  refund_reason: RefundReason | null;
  /** The status of its booking (null when the booking is gone). */
  status: string | null;
}

/** A recorded payment's refund reason and its booking's status (read at the end of the recording batch). */
export function paymentStateQuery(db: D1Database, transactionId: string): D1PreparedStatement {
  return db
    .prepare(
      'SELECT p.refund_reason, b.status FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id WHERE p.transaction_id = ?1',
    )
    .bind(transactionId);
}

export async function isPaymentRecorded(db: D1Database, transactionId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM payments WHERE transaction_id = ?1').bind(transactionId).first()) !== null;
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
    case 'cancelled_by_clinic':
      return 'The clinic cancelled the booking after it was paid';
    case 'amount_differs':
      return 'The amount paid differs from the booking’s price';
    case 'other_intent':
      return 'The payment is not the one the booking was waiting for';
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
  refund_status: string;
  refund_reason: string | null;
  patient_name: string | null;
  treatment: string | null;
  appointment_date: string | null;
  slot: string | null;
  booking_status: string | null;
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
  patientName: row.patient_name,
  email: row.email,
  bookingId: row.booking_id,
  treatment: row.treatment,
  appointmentDate: row.appointment_date ? displayDate(row.appointment_date) : null,
  slot: row.slot,
  bookingStatus: row.booking_status,
});

/** Payments the clinic owes back, oldest first, with what is left of their booking. */
export async function refundsDue(db: D1Database): Promise<RefundDue[]> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.transaction_id, p.booking_id, p.email, p.amount_cents, p.currency, p.provider, p.created_at,
         p.refund_status, p.refund_reason, b.patient_name, b.treatment, b.appointment_date, b.slot, b.status AS booking_status
       FROM payments p LEFT JOIN bookings b ON b.id = p.booking_id
       WHERE p.refund_status = 'due'
       ORDER BY p.created_at, p.id`,
    )
    .all<RefundRow>();
  return results.map(toRefundDue);
}
