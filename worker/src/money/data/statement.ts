/** The SQL of a statement (GET /api/users/me/statement): an account's visits, payments and refunds. */
import { liveBooking } from '../../booking/data/bookings.ts';

export interface StatementBookingRow {
  id: string;
  user_id: string;
  patient_name: string;
  treatment: string;
  appointment_date: string;
  created_at: string;
  price_cents: number;
  /** 1 while it counts (booked, attended or missed; not cancelled, released or moved on). */
  live: number;
}

export interface StatementPaymentRow {
  booking_id: string;
  user_id: string;
  amount_cents: number;
  created_at: string;
  provider: 'stripe' | 'demo' | 'desk';
  method: 'cash' | 'card' | null;
  card_brand: string | null;
  card_last4: string | null;
  refund_status: string | null;
  refund_amount_cents: number | null;
  refund_updated_at: string | null;
}

/** SQL: the bookings of account ?1: its holder's and its dependants'. */
const OF_ACCOUNT = '(b.user_id = ?1 OR b.user_id IN (SELECT id FROM users WHERE guardian_id = ?1))';

/** Every booking of the account's people that had a price, in any state, oldest first. */
export const statementBookings = (db: D1Database, accountId: string, now: Date) =>
  db
    .prepare(
      `SELECT b.id, b.user_id, b.patient_name, b.treatment, b.appointment_date, b.created_at, b.price_cents,
         (b.status IN ('attended', 'no_show') OR (b.status = 'active' AND ${liveBooking('b', '?2')})) AS live
       FROM bookings b WHERE ${OF_ACCOUNT} AND b.price_cents > 0 ORDER BY b.created_at, b.id`,
    )
    .bind(accountId, now.toISOString())
    .all<StatementBookingRow>()
    .then((r) => r.results);

/** Every payment of the account's people's bookings, with its refund, oldest first. */
export const statementPayments = (db: D1Database, accountId: string) =>
  db
    .prepare(
      `SELECT p.booking_id, b.user_id, p.amount_cents, p.created_at, p.provider, p.method, p.card_brand, p.card_last4,
         p.refund_status, p.refund_amount_cents, p.refund_updated_at
       FROM payments p JOIN bookings b ON b.id = p.booking_id WHERE ${OF_ACCOUNT} ORDER BY p.created_at, p.id`,
    )
    .bind(accountId)
    .all<StatementPaymentRow>()
    .then((r) => r.results);

export interface StatementFeeRow {
  id: string;
  booking_id: string;
  user_id: string;
  treatment: string;
  kind: 'no_show' | 'late_cancel';
  amount_cents: number;
  status: 'charging' | 'charged' | 'unpaid' | 'paid' | 'waived';
  card_brand: string | null;
  card_last4: string | null;
  failure: string | null;
  refund_id: string | null;
  /** Paid (with transaction_id): charged to the card, or through the pay link. */
  transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Every fee of the account, oldest first. */
export const statementFees = (db: D1Database, accountId: string) =>
  db
    .prepare(
      `SELECT f.id, f.booking_id, b.user_id, b.treatment, f.kind, f.amount_cents, f.status, f.card_brand, f.card_last4,
         f.failure, f.refund_id, f.transaction_id, f.created_at, f.updated_at
       FROM fees f JOIN bookings b ON b.id = f.booking_id WHERE f.account_id = ?1 ORDER BY f.created_at, f.id`,
    )
    .bind(accountId)
    .all<StatementFeeRow>()
    .then((r) => r.results);

/** The account patient `id` belongs to (their guardian's, for a dependant), or null for no such patient. */
export const accountOfPatient = (db: D1Database, id: string) =>
  db
    .prepare('SELECT coalesce(guardian_id, id) AS account FROM users WHERE id = ?1 AND erased_at IS NULL')
    .bind(id)
    .first<string>('account');
