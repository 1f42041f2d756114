import type { CancellationPolicy, PolicyChange } from '../../../../contract/policy.ts';

/**
 * The clinic's rules for changing a booking online (one row of cancellation_policy: 24 hours each
 * unless the clinic changed them): free cancellation of a paid booking, and the patient's reschedule cutoff.
 */
export async function readPolicy(db: D1Database): Promise<CancellationPolicy> {
  return toPolicy(await policyRow(db).first<PolicyRow>());
}

export type PolicyRow = {
  free_cancellation_hours: number;
  reschedule_cutoff_hours: number;
  no_show_fee_cents: number;
  late_cancel_fee_cents: number;
};

/** The statement readPolicy reads (to batch with others; toPolicy makes the answer of its row). */
export const policyRow = (db: D1Database) =>
  db.prepare(
    `SELECT free_cancellation_hours, reschedule_cutoff_hours, no_show_fee_cents, late_cancel_fee_cents
     FROM cancellation_policy WHERE id = 1`,
  );

export function toPolicy(row: PolicyRow | null | undefined): CancellationPolicy {
  return {
    freeCancellationHours: row?.free_cancellation_hours ?? 24,
    rescheduleCutoffHours: row?.reschedule_cutoff_hours ?? 24,
    noShowFee: (row?.no_show_fee_cents ?? 0) / 100,
    lateCancelFee: (row?.late_cancel_fee_cents ?? 0) / 100,
  };
}

/** Sets the fields of `change` that are given; the others stay as they are. */
export function savePolicy(db: D1Database, change: PolicyChange): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cancellation_policy (id, free_cancellation_hours, reschedule_cutoff_hours)
       VALUES (1, coalesce(?1, 24), coalesce(?2, 24))
       ON CONFLICT (id) DO UPDATE SET
         free_cancellation_hours = coalesce(?1, free_cancellation_hours),
         reschedule_cutoff_hours = coalesce(?2, reschedule_cutoff_hours),
         no_show_fee_cents = coalesce(?3, no_show_fee_cents),
         late_cancel_fee_cents = coalesce(?4, late_cancel_fee_cents),
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(
      change.freeCancellationHours ?? null,
      change.rescheduleCutoffHours ?? null,
      change.noShowFee === undefined ? null : change.noShowFee * 100,
      change.lateCancelFee === undefined ? null : change.lateCancelFee * 100,
    );
}
