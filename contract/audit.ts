import * as v from 'valibot';
import { text } from './fields.ts';

/**
 * What an audit entry records (audit_log.action, `?type=` of GET /api/audit). The database checks
 * only an action's shape ('thing.done'); a new kind of change adds its action here (and its label
 * in pwa/src/features/audit).
 */
export const AUDIT_ACTIONS = [
  'user.made_admin',
  'user.deleted',
  'doctor.added',
  'doctor.updated',
  'doctor.deleted',
  'treatment.added',
  'treatment.updated',
  'treatment.deleted',
  'treatment.deactivated',
  'clinic.hours_changed',
  'closure.added',
  'closure.deleted',
  'chair.added',
  'chair.renamed',
  'chair.deleted',
  'specialty.added',
  'specialty.renamed',
  'specialty.deleted',
  'review.approved',
  'review.hidden',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.attended',
  'booking.noted',
  'booking.no_show',
  'booking.booked_by_phone',
  'booking.kept',
  'booking.confirmed',
  'booking.callback_requested',
  'recall.added',
  'recall.changed',
  'record.read',
  'form.saved',
  'form.answered',
  'sms.stopped',
  'sms.started',
  'payment.succeeded',
  'payment.failed',
  'payment.refund_due',
  'payment.refund_requested',
  'payment.refunded',
  'payment.refund_failed',
  'clinic.messages_changed',
  'clinic.policy_changed',
  'fee.charged',
  'fee.unpaid',
  'fee.paid',
  'fee.waived',
] as const;
const NOT_AN_ACTION = 'type must be one of the audit trail’s action types';
export const AuditAction = v.picklist(AUDIT_ACTIONS, NOT_AN_ACTION);
export type AuditAction = v.InferOutput<typeof AuditAction>;

/** What an entry is about (audit_log.target_type). */
export const AUDIT_TARGET_TYPES = [
  'user',
  'doctor',
  'review',
  'booking',
  'payment',
  'treatment',
  'closure',
  'chair',
  'specialty',
  'clinic',
  'recall',
  'sms',
  'form',
  'fee',
] as const;
export const AuditTargetType = v.picklist(AUDIT_TARGET_TYPES);
export type AuditTargetType = v.InferOutput<typeof AuditTargetType>;

/**
 * An empty parameter (`?type=`) is the same as none. `message` is the answer when the value fits
 * neither (a picklist's own message does not reach through the union).
 */
const orEmpty = <S extends v.GenericSchema>(schema: S, message?: string) =>
  v.optional(
    v.union(
      [
        v.pipe(
          v.literal(''),
          v.transform(() => undefined),
        ),
        schema,
      ],
      message,
    ),
  );

/** The answer to a cursor that is no page's `nextCursor`. */
export const BAD_CURSOR = 'cursor is not valid; start again from the first page';

/** Whole numbers from 1 to 100. */
const LIMIT = 'limit must be a whole number from 1 to 100';

/**
 * GET /api/audit?cursor=&actor=&type=&limit=: newest first. `cursor` is a page's `nextCursor`;
 * `actor` a user's id or email, or `stripe` / `system`; `type` one action; `limit` the entries
 * of a page (1–100, 50 by default). An empty parameter is the same as none.
 */
export const AuditQuery = v.object({
  cursor: orEmpty(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,200}$/, BAD_CURSOR)), BAD_CURSOR),
  actor: orEmpty(text('actor', 254)),
  type: orEmpty(AuditAction, NOT_AN_ACTION),
  limit: orEmpty(
    v.pipe(v.string(), v.regex(/^\d{1,3}$/, LIMIT), v.transform(Number), v.minValue(1, LIMIT), v.maxValue(100, LIMIT)),
    LIMIT,
  ),
});
export type AuditQuery = v.InferInput<typeof AuditQuery>;

/** Only the fields that changed, before or after (null: nothing before an addition, nothing after a deletion). */
const Fields = v.nullable(v.record(v.string(), v.unknown()));

export const AuditEntry = v.strictObject({
  _id: v.string(),
  /** When (ISO 8601, UTC). */
  at: v.string(),
  /**
   * Who: a user's id and email at the time and `label` their role then ('admin' | 'patient'), or
   * the system (id and email null) with `label` 'stripe' (a webhook) or 'system' (the cron).
   */
  actor: v.strictObject({ id: v.nullable(v.string()), email: v.nullable(v.string()), label: v.string() }),
  action: AuditAction,
  /** What: its kind, its id (it may no longer exist) and its name at the time. */
  target: v.strictObject({ type: AuditTargetType, id: v.string(), name: v.nullable(v.string()) }),
  before: Fields,
  after: Fields,
});
export type AuditEntry = v.InferOutput<typeof AuditEntry>;

/** One page, newest first; `nextCursor` fetches the next (null on the last page). */
export const AuditPage = v.strictObject({ entries: v.array(AuditEntry), nextCursor: v.nullable(v.string()) });
export type AuditPage = v.InferOutput<typeof AuditPage>;
