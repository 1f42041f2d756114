import * as v from 'valibot';

/** POST /api/fees/:id/waive (admin): waived; `refunded` when it had been taken and went back to the card. */
export const FeeWaived = v.strictObject({
  acknowledged: v.literal(true),
  refunded: v.boolean(),
  message: v.string(),
});
export type FeeWaived = v.InferOutput<typeof FeeWaived>;

/**
 * A fee as the patient and the desk see it: 'charged' to the card on file, 'unpaid' (the card was
 * declined or needs its holder: a pay link went out), 'paid' through that link, 'waived' by the
 * clinic ('charging' while the provider is asked).
 */
export const Fee = v.strictObject({
  _id: v.string(),
  bookingId: v.string(),
  kind: v.picklist(['no_show', 'late_cancel']),
  /** In dollars. */
  amount: v.number(),
  status: v.picklist(['charging', 'charged', 'unpaid', 'paid', 'waived']),
  /** "Visa ending 4242" when charged to a card. */
  card: v.nullable(v.string()),
  /** Why it could not be charged, in plain words. */
  failure: v.nullable(v.string()),
  createdAt: v.string(),
});
export type Fee = v.InferOutput<typeof Fee>;

/**
 * One line of a statement (GET /api/users/me/statement): a visit's price ('charge'), a fee, a
 * payment (online, at the desk, or of a fee), a refund; `amount` in dollars, always positive, and
 * the account's balance after it (what is owed: charges and fees − payments + refunds).
 */
export const StatementLine = v.strictObject({
  at: v.string(),
  kind: v.picklist(['charge', 'fee', 'payment', 'refund']),
  description: v.string(),
  bookingId: v.nullable(v.string()),
  amount: v.number(),
  balance: v.number(),
});
export type StatementLine = v.InferOutput<typeof StatementLine>;

/** GET /api/users/me/statement: per person of the account (the holder first, then each dependant). */
export const Statement = v.strictObject({
  people: v.array(
    v.strictObject({
      patientId: v.string(),
      name: v.string(),
      lines: v.array(StatementLine),
      /** What this person's visits owe now. */
      balance: v.number(),
    }),
  ),
  /** The account's whole balance: what is owed now (negative: owed back to the account). */
  balance: v.number(),
  fees: v.array(Fee),
});
export type Statement = v.InferOutput<typeof Statement>;
