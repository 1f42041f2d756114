import type * as v from 'valibot';
import type { AuditAction, AuditEntry as AuditAnswer, AuditTargetType } from '../../../../contract/audit.ts';
import type { Role } from '../../../../contract/users.ts';

/** Who acted: a signed-in user (their id, email and role at the time), or a part of the system. */
/** Who made a change: a signed-in user, or the system (the cron, a webhook). */
export type Actor = { id: string; email: string; role: v.InferOutput<typeof Role> } | { system: 'stripe' | 'system' };

/**
 * SQL that the audit statement evaluates in its batch, at its place there: `param` binds a value
 * and answers its placeholder. For a value read at the moment of the change, such as
 * `(param) => \`(SELECT refund_reason FROM payments WHERE transaction_id = ${param(id)})\``.
 */
export type Sql = (param: (value: unknown) => string) => string;

/** Fields of the target: JSON values, or Sql read by the statement. */
export type Fields = Record<string, unknown>;

export interface AuditEntry {
  actor: Actor;
  action: AuditAction;
  /** What the change is about: its kind, its id and its name now (kept after it is gone). */
  target: { type: AuditTargetType; id: string; name: string | null | Sql };
  /** The target's fields before and after; only those that differ are stored. */
  before?: Fields | null;
  after?: Fields | null;
}

/**
 * Write the entry only when the statement right before it in the batch changed a row. `changes()`
 * is that statement's count (the audit statement's own insert is counted after it has run).
 */
export const IF_CHANGED: Sql = () => 'changes() > 0';

/**
 * The audit row of a change (the one way to write audit_log), to put in the SAME `db.batch()` as
 * the change, so that a change that fails leaves no row:
 *
 *   await env.DB.batch([
 *     rescheduleBooking(env.DB, id, slot),
 *     auditEntry(env.DB, {
 *       actor: admin,                          // the user from requireAdmin/requireUser, or { system: 'system' }
 *       action: 'booking.rescheduled',         // add a new action to AUDIT_ACTIONS in contract/audit.ts
 *       target: { type: 'booking', id, name }, // name: a snapshot, kept after the target is gone
 *       before: { slot: old },                 // only the fields that differ are stored
 *       after: { slot },
 *     }, IF_CHANGED),
 *   ]);
 *
 * Put it right after the change. When the change may change nothing (a conditional UPDATE, a
 * DELETE of an id that may not exist, an INSERT … ON CONFLICT DO NOTHING), pass `IF_CHANGED` so
 * that no row is written then, or a condition of your own (Sql), e.g. to put the row before the
 * change and read the target's fields as they were (see moderateReview). Any value of `target.name`,
 * `before` or `after` may be Sql, read when the statement runs in the batch.
 */
export function auditEntry(db: D1Database, entry: AuditEntry, onlyIf?: Sql): D1PreparedStatement {
  const { params, param } = placeholders();
  const sqlOrParam = (value: unknown) => (isSql(value) ? value(param) : param(value));
  const { actor, target } = entry;
  const [id, email, label] = 'system' in actor ? [null, null, actor.system] : [actor.id, actor.email, actor.role];
  const { before, after } = changedFields(entry.before ?? null, entry.after ?? null);
  const values = [
    param(id),
    param(email),
    param(label),
    param(entry.action),
    param(target.type),
    param(target.id),
    sqlOrParam(target.name),
    jsonObject(before, param),
    jsonObject(after, param),
  ];
  return db
    .prepare(
      `INSERT INTO audit_log (actor_id, actor_email, actor_label, action, target_type, target_id, target_name, before, after)
       SELECT ${values.join(', ')}${onlyIf ? ` WHERE ${onlyIf(param)}` : ''}`,
    )
    .bind(...params);
}

/** Numbered parameters in the order they are bound: `param(value)` answers `?n`. */
export function placeholders() {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `?${params.length}`;
  };
  return { params, param };
}

const isSql = (value: unknown): value is Sql => typeof value === 'function';

/** Only the fields whose values differ (all of them for an addition or a deletion); Sql always counts as changed. */
export function changedFields(
  before: Fields | null,
  after: Fields | null,
): { before: Fields | null; after: Fields | null } {
  if (!before || !after) return { before: definedOnly(before), after: definedOnly(after) };
  const changed = (key: string) =>
    isSql(before[key]) || isSql(after[key]) || JSON.stringify(before[key]) !== JSON.stringify(after[key]);
  const keep = (fields: Fields) =>
    Object.fromEntries(Object.entries(fields).filter(([key, value]) => value !== undefined && changed(key)));
  return { before: keep(before), after: keep(after) };
}

/** Whether `after` changes any field of `before` (an edit that changes nothing needs no audit row). */
export function changesAnything(before: Fields, after: Fields): boolean {
  const changed = changedFields(before, after);
  return Object.keys(changed.after ?? {}).length + Object.keys(changed.before ?? {}).length > 0;
}

/** The fields whose value is not undefined (a partial change's fields that were sent). */
export function definedOnly<F extends Fields | null>(fields: F): F {
  return (fields && Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))) as F;
}

/** SQL for a JSON object of `fields` (NULL for none): one bound JSON text, or json_object() when some are Sql. */
function jsonObject(fields: Fields | null, param: (value: unknown) => string): string {
  if (!fields) return 'NULL';
  const entries = Object.entries(fields);
  if (!entries.some(([, value]) => isSql(value))) return param(JSON.stringify(fields));
  const pairs = entries.map(
    ([key, value]) => `${param(key)}, ${isSql(value) ? value(param) : `json(${param(JSON.stringify(value))})`}`,
  );
  return `json_object(${pairs.join(', ')})`;
}

/** A row of audit_log. */
export interface AuditRow {
  id: number;
  at: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_label: string;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string;
  target_name: string | null;
  before: string | null;
  after: string | null;
}

/** An entry as GET /api/audit answers it. */
export const toAuditEntry = (row: AuditRow): AuditAnswer => ({
  _id: String(row.id),
  at: row.at,
  actor: { id: row.actor_id, email: row.actor_email, label: row.actor_label },
  action: row.action,
  target: { type: row.target_type, id: row.target_id, name: row.target_name },
  before: row.before === null ? null : JSON.parse(row.before),
  after: row.after === null ? null : JSON.parse(row.after),
});

/** Where a page starts: just older than this entry. */
export interface AuditPosition {
  at: string;
  id: number;
}

export interface AuditFilter {
  /** A user's id or email, or a system label ('stripe', 'system'). */
  actor?: string;
  action?: AuditAction;
}

/**
 * Up to `limit` entries older than `after` (from the newest without it), newest first, keyset on
 * (at, id) so that entries written meanwhile never shift a page; each filter uses its index.
 */
export async function auditPage(
  db: D1Database,
  { after, filter, limit }: { after?: AuditPosition; filter: AuditFilter; limit: number },
): Promise<AuditRow[]> {
  const { params, param } = placeholders();
  const where: string[] = [];
  if (after) where.push(`(at, id) < (${param(after.at)}, ${param(after.id)})`);
  if (filter.action) where.push(`action = ${param(filter.action)}`);
  if (filter.actor?.includes('@')) where.push(`actor_email = ${param(filter.actor.toLowerCase())}`);
  else if (filter.actor) {
    const actor = param(filter.actor);
    where.push(`(actor_id = ${actor} OR (actor_id IS NULL AND actor_label = ${actor}))`);
  }
  const { results } = await db
    .prepare(
      `SELECT id, at, actor_id, actor_email, actor_label, action, target_type, target_id, target_name, before, after
       FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, id DESC LIMIT ${param(limit)}`,
    )
    .bind(...params)
    .all<AuditRow>();
  return results;
}
