import type { AuditAction, AuditEntry } from './api/get-audit-trail.ts';

/**
 * How the Activity page names each action of the audit trail (the contract's AUDIT_ACTIONS: the
 * compiler asks for a label when one is added there), in the order of its filter.
 */
export const ACTION_LABELS: Record<AuditAction, string> = {
  'user.made_admin': 'Made admin',
  'user.deleted': 'Deleted user',
  'doctor.added': 'Added doctor',
  'doctor.updated': 'Edited doctor',
  'doctor.deleted': 'Deleted doctor',
  'treatment.added': 'Added treatment',
  'treatment.updated': 'Edited treatment',
  'treatment.deactivated': 'Deactivated treatment',
  'treatment.deleted': 'Deleted treatment',
  'clinic.hours_changed': 'Changed opening hours',
  'closure.added': 'Added closure',
  'closure.deleted': 'Deleted closure',
  'chair.added': 'Added chair',
  'chair.deleted': 'Deleted chair',
  'specialty.added': 'Added specialty',
  'specialty.renamed': 'Renamed specialty',
  'specialty.deleted': 'Deleted specialty',
  'review.approved': 'Approved review',
  'review.hidden': 'Hid review',
  'booking.cancelled': 'Cancelled booking',
  'booking.rescheduled': 'Rescheduled booking',
  'booking.attended': 'Marked attended',
  'booking.no_show': 'Marked no-show',
  'booking.booked_by_phone': 'Booked by phone',
  'payment.succeeded': 'Payment received',
  'payment.failed': 'Payment failed',
  'payment.refund_due': 'Payment to refund',
  'payment.refund_requested': 'Refund requested',
  'payment.refunded': 'Refunded',
  'payment.refund_failed': 'Refund failed',
  'clinic.messages_changed': 'Changed message settings',
  'clinic.policy_changed': 'Changed cancellation policy',
};

/** Who acted, in words: the user's email, or the part of the system. */
export function actorText(actor: AuditEntry['actor']): string {
  if (actor.email) return actor.email;
  return actor.label === 'stripe' ? 'Stripe (payment webhook)' : 'System';
}

/** "workingDays" → "working days". */
export const fieldName = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** A before or after value in words: text as it is, yes/no, none, and anything else as compact JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

/** Each field the entry changed: its name, what it was (absent for an addition) and what it became (absent for a deletion). */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return keys.map((key) => ({
    field: fieldName(key),
    before: entry.before && key in entry.before ? valueText(entry.before[key]) : undefined,
    after: entry.after && key in entry.after ? valueText(entry.after[key]) : undefined,
  }));
}
