/** The SQL of fees (migration 0023): one per booking and kind, ever; charged to the card on file. */
import { cardText } from '../../../../contract/cards.ts';
import type { Fee } from '../../../../contract/fees.ts';
import { ACCOUNT_OF } from '../../booking/data/bookings.ts';

export type FeeKind = 'no_show' | 'late_cancel';
export type FeeStatus = 'charging' | 'charged' | 'unpaid' | 'paid' | 'waived';

export interface FeeRow {
  id: string;
  booking_id: string;
  kind: FeeKind;
  account_id: string;
  amount_cents: number;
  status: FeeStatus;
  provider: 'stripe' | 'demo' | null;
  transaction_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  failure: string | null;
  refund_id: string | null;
  created_at: string;
}

const FEE_COLUMNS = `id, booking_id, kind, account_id, amount_cents, status, provider, transaction_id, card_brand,
  card_last4, failure, refund_id, created_at`;

/** SQL: the fee of `kind` booking `b` accepted when it was booked. */
const ACCEPTED = (b: string) =>
  `CASE ?3 WHEN 'no_show' THEN ${b}.no_show_fee_cents ELSE ${b}.late_cancel_fee_cents END`;

/**
 * The fee of `kind` for a booking whose patient accepted one when booking, once ever (the unique
 * (booking_id, kind) keeps it so however many marks or deliveries ask): 'charging', or 'waived' when
 * the desk waived it with the mark. A no-show fee only while the booking is still marked missed.
 */
export function insertFee(
  db: D1Database,
  fee: { bookingId: string; kind: FeeKind; status: 'charging' | 'waived' },
  now: Date,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO fees (id, booking_id, kind, account_id, amount_cents, status, created_at, updated_at)
       SELECT ?1, b.id, ?3, ${ACCOUNT_OF('b')}, ${ACCEPTED('b')}, ?4, ?5, ?5
       FROM bookings b WHERE b.id = ?2 AND ${ACCEPTED('b')} > 0 AND (?3 != 'no_show' OR b.status = 'no_show')
       ON CONFLICT (booking_id, kind) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), fee.bookingId, fee.kind, fee.status, now.toISOString());
}

export const feeOf = (db: D1Database, bookingId: string, kind: FeeKind) =>
  db
    .prepare(`SELECT ${FEE_COLUMNS} FROM fees WHERE booking_id = ?1 AND kind = ?2`)
    .bind(bookingId, kind)
    .first<FeeRow>();

export const feeById = (db: D1Database, id: string) =>
  db.prepare(`SELECT ${FEE_COLUMNS} FROM fees WHERE id = ?1`).bind(id).first<FeeRow>();

/** The fee a demo payment intent (derived from the fee's id) pays, or null. */
export const feeOfDemoIntent = (db: D1Database, intentId: string) =>
  db
    .prepare(`SELECT ${FEE_COLUMNS} FROM fees WHERE 'pi_demo_' || replace(id, '-', '') = ?1`)
    .bind(intentId)
    .first<FeeRow>();

/** Every fee of an account, oldest first (the statement's). */
export const feesOfAccount = (db: D1Database, accountId: string) =>
  db
    .prepare(`SELECT ${FEE_COLUMNS} FROM fees WHERE account_id = ?1 ORDER BY created_at, id`)
    .bind(accountId)
    .all<FeeRow>()
    .then((r) => r.results);

/**
 * What came of a fee's charge: 'charged' or 'unpaid' from 'charging', 'paid' from 'unpaid' (the
 * pay link); nothing changes from any other state (0 changes), so a repeat records once.
 */
export function settleFee(
  db: D1Database,
  id: string,
  outcome: {
    status: 'charged' | 'unpaid' | 'paid';
    provider: 'stripe' | 'demo' | null;
    transactionId: string | null;
    card: { brand: string; last4: string } | null;
    failure: string | null;
  },
  now: Date,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE fees SET status = ?2, provider = coalesce(?3, provider), transaction_id = coalesce(?4, transaction_id),
         card_brand = coalesce(?5, card_brand), card_last4 = coalesce(?6, card_last4), failure = ?7, updated_at = ?8
       WHERE id = ?1 AND status = CASE ?2 WHEN 'paid' THEN 'unpaid' ELSE 'charging' END`,
    )
    .bind(
      id,
      outcome.status,
      outcome.provider,
      outcome.transactionId,
      outcome.card?.brand ?? null,
      outcome.card?.last4 ?? null,
      outcome.failure,
      now.toISOString(),
    );
}

/** Waives a fee not waived yet (`refundId`: its refund, when it had been taken). */
export const waiveFee = (db: D1Database, id: string, refundId: string | null, now: Date) =>
  db
    .prepare(`UPDATE fees SET status = 'waived', refund_id = ?2, updated_at = ?3 WHERE id = ?1 AND status != 'waived'`)
    .bind(id, refundId, now.toISOString());

/** A fee as the patient and the desk see it (GET /api/fees/:id, the statement's `fees`). */
export const toFee = (
  f: Pick<
    FeeRow,
    'id' | 'booking_id' | 'kind' | 'amount_cents' | 'status' | 'card_brand' | 'card_last4' | 'failure' | 'created_at'
  >,
): Fee => ({
  _id: f.id,
  bookingId: f.booking_id,
  kind: f.kind,
  amount: f.amount_cents / 100,
  status: f.status,
  card: f.card_brand && f.card_last4 ? cardText({ brand: f.card_brand, last4: f.card_last4 }) : null,
  failure: f.failure,
  createdAt: f.created_at,
});
