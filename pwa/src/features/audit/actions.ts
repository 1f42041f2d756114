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
  'chair.renamed': 'Renamed chair',
  'chair.deleted': 'Deleted chair',
  'specialty.added': 'Added specialty',
  'specialty.renamed': 'Renamed specialty',
  'specialty.deleted': 'Deleted specialty',
  'review.approved': 'Approved review',
  'review.hidden': 'Hid review',
  'booking.cancelled': 'Cancelled booking',
  'booking.rescheduled': 'Rescheduled booking',
  'booking.attended': 'Marked attended',
  'booking.noted': 'Wrote a note on a visit',
  'booking.no_show': 'Marked no-show',
  'booking.booked_by_phone': 'Booked by phone',
  'booking.kept': 'Kept after review',
  'booking.confirmed': 'Patient confirmed',
  'booking.callback_requested': 'Patient asked for a call',
  'recall.added': 'Added recall',
  'recall.changed': 'Changed recall',
  'record.read': 'Opened a family member’s record',
  'form.saved': 'Saved a form',
  'form.answered': 'Answered a form',
  'sms.stopped': 'Patient stopped SMS',
  'sms.started': 'Patient restarted SMS',
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

/** Fields that hold an id: the entry's target already names what they point to. */
const ID_FIELDS = new Set(['movedTo', 'patientId', 'doctorId', 'transactionId']);

/** Fields whose name in words is not their key's. */
const FIELD_NAMES: Record<string, string> = {
  appointmentDate: 'date',
  cancelReason: 'cancelled by',
  cancelNote: 'reason given',
  needsReview: 'waiting for review',
  pastTheUnpaidLimit: 'past the unpaid limit because',
  refundReason: 'why it is given back',
  refundStatus: 'refund',
  paymentError: 'why it failed',
};

/** The codes some fields hold, in words. */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  cancelReason: { patient: 'the patient', admin: 'the clinic', unpaid: 'nobody: not paid in time' },
  status: { active: 'booked', cancelled: 'cancelled', attended: 'attended', no_show: 'no-show', moved: 'moved' },
  refundStatus: {
    due: 'to be given back by the clinic',
    pending: 'asked of the card provider',
    succeeded: 'refunded',
    failed: 'failed',
  },
  refundReason: {
    cancelled: 'the booking was cancelled',
    booking_not_active: 'the booking was no longer on',
    already_paid: 'the booking was already paid',
    amount_differs: 'the amount was not the price',
    other_intent: 'a second payment for the booking',
  },
};

/** "workingDays" → "working days"; some fields by a plainer name. */
export const fieldName = (key: string) => FIELD_NAMES[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** "2026-12-01" → "Dec 1, 2026" (a date-only value, read as it is written). */
const dateText = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

/** A before or after value in words: codes and dates in words, yes/no, none, and anything else as compact JSON. */
export function valueText(value: unknown, key = ''): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') {
    const words = VALUE_WORDS[key]?.[value];
    if (words) return words;
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? dateText(value) : value;
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

/**
 * Each field the entry changed, but those holding an id: its name, what it was (absent for an
 * addition) and what it became (absent for a deletion).
 */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return keys
    .filter((key) => !ID_FIELDS.has(key))
    .map((key) => ({
      field: fieldName(key),
      before: entry.before && key in entry.before ? valueText(entry.before[key], key) : undefined,
      after: entry.after && key in entry.after ? valueText(entry.after[key], key) : undefined,
    }));
}
