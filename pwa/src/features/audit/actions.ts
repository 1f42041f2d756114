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
  'fee.charged': 'Fee charged to the card on file',
  'fee.unpaid': 'Fee not charged: pay link sent',
  'fee.paid': 'Fee paid',
  'fee.waived': 'Fee waived',
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A scalar value in words: codes and dates in words, yes/no, none. */
export function valueText(value: unknown, key = ''): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'string') {
    const words = VALUE_WORDS[key]?.[value];
    if (words) return words;
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? dateText(value) : value;
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && /amount|price/i.test(key)) return `$${value}`;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => valueText(item, key)).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([field, item]) => `${fieldName(field)} ${valueText(item, field)}`)
      .join(', ');
  }
  return String(value);
}

/** One changed thing: its name, what it was (absent for an addition) and what it became (absent for a deletion). */
export type Change = { field: string; before?: string; after?: string };

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A week's hours by day name, from either shape the trail holds: the clinic's
 * `[{weekday, open, close}]` or a doctor's "Mon 09:00-17:00, Tue 09:00-13:00" (or "No working
 * days"). Undefined for a value of neither shape.
 */
function weekOf(value: unknown): Map<string, string> | undefined {
  const week = new Map<string, string>();
  if (Array.isArray(value)) {
    for (const day of value) {
      if (typeof day !== 'object' || day === null || !('weekday' in day)) return undefined;
      const { weekday, open, close } = day as { weekday: number; open: string; close: string };
      week.set(WEEKDAY_NAMES[weekday] ?? String(weekday), `${open}–${close}`);
    }
    return week;
  }
  if (typeof value !== 'string') return undefined;
  if (value === 'No working days') return week;
  for (const part of value.split(', ')) {
    const match = /^(\w{3}) (\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(part);
    const day = match && WEEKDAY_NAMES.find((name) => name.startsWith(match[1] ?? '-'));
    if (!match || !day) return undefined;
    week.set(day, `${match[2]}–${match[3]}`);
  }
  return week;
}

/** The days whose hours changed, one line each ("Saturday: 09:00–17:00 → 09:00–13:00"). */
function weekChanges(before: Map<string, string>, after: Map<string, string>): Change[] {
  return WEEKDAY_NAMES.filter((day) => before.get(day) !== after.get(day)).map((day) => ({
    field: day,
    before: before.get(day) ?? 'closed',
    after: after.get(day) ?? 'closed',
  }));
}

/** An object's fields that differ, one line each, named "outer inner". */
function objectChanges(key: string, before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  return changesOf({ before, after }).map((change) => ({ ...change, field: `${fieldName(key)} ${change.field}` }));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One field's change as lines: a week by the days that changed, an object by its fields, else one line. */
function fieldChanges(
  key: string,
  before: unknown,
  after: unknown,
  has: { before: boolean; after: boolean },
): Change[] {
  if (key === 'photo') return [{ field: 'photo', after: has.before && has.after ? 'a new one' : 'set' }];
  if (has.before && has.after) {
    const weeks = [weekOf(before), weekOf(after)];
    if (weeks[0] && weeks[1]) return weekChanges(weeks[0], weeks[1]);
    if (isRecord(before) && isRecord(after)) return objectChanges(key, before, after);
  }
  return [
    {
      field: fieldName(key),
      ...(has.before ? { before: valueText(before, key) } : {}),
      ...(has.after ? { after: valueText(after, key) } : {}),
    },
  ];
}

/**
 * Each thing the entry changed, in words, one line each: only what differs (a week's hours by the
 * days that changed), never a field that holds an id.
 */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>): Change[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => !ID_FIELDS.has(key) && !UUID.test(String(after[key] ?? before[key] ?? '')))
    .filter((key) => !(key in before && key in after && JSON.stringify(before[key]) === JSON.stringify(after[key])))
    .flatMap((key) =>
      fieldChanges(key, before[key], after[key], {
        before: Boolean(entry.before) && key in before,
        after: Boolean(entry.after) && key in after,
      }),
    );
}

/** What the entry is about, by its name at the time; never an id (a thing without a name is "a booking"). */
export function subjectText(target: AuditEntry['target']): string {
  return target.name ?? `a ${target.type}`;
}
