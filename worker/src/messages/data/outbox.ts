import { liveBooking, offersStrandedWhere, type ScheduleChange, strandedWhere } from '../../booking/data/bookings.ts';

/** The kinds of mail a patient gets. */
export type MailKind =
  | 'confirmation'
  | 'reschedule'
  | 'cancellation'
  | 'receipt'
  | 'reminder'
  | 'offer'
  | 'stranded'
  | 'offer_withdrawn';

/**
 * SQL: what a mail needs of booking `b` (and its doctor `d`), as a JSON object, taken when the mail
 * is queued: the mail tells what was true at that moment.
 */
const BOOKING_SNAPSHOT = `json_object('bookingId', b.id, 'treatment', b.treatment, 'date', b.appointment_date,
  'startMinute', b.start_minute, 'durationMinutes', b.duration_minutes, 'patientName', b.patient_name,
  'doctor', d.name, 'priceCents', b.price_cents, 'paid', b.paid, 'holdUntil', b.hold_until,
  'cancelReason', b.cancel_reason, 'calendarUid', coalesce(b.calendar_uid, b.id), 'version', b.version)`;

/** SQL: what a mail about waitlist offer `o` needs (its treatment `t`, doctor `d`, patient `u`). */
const OFFER_SNAPSHOT = `json_object('offerId', o.id, 'treatment', t.name, 'date', o.day, 'startMinute', o.start_minute,
  'durationMinutes', o.duration_minutes, 'patientName', u.name, 'doctor', d.name, 'priceCents', t.price_cents,
  'expiresAt', o.expires_at)`;

/** What every queued mail's `data` holds (BOOKING_SNAPSHOT), plus what its kind adds. */
export interface MailData {
  bookingId: string;
  treatment: string;
  date: string;
  startMinute: number;
  durationMinutes: number;
  patientName: string;
  doctor: string | null;
  priceCents: number;
  paid: number;
  holdUntil: string | null;
  cancelReason: string | null;
  /** The appointment's calendar UID for its whole life, and the booking's version (the SEQUENCE). */
  calendarUid?: string;
  version?: number;
  /** cancellation: who cancelled ('patient', 'admin', 'unpaid'), and why (the clinic's words). */
  by?: string;
  reason?: string | null;
  /** reschedule: the time it had before. */
  from?: { date: string; startMinute: number };
  /** reminder: which one. */
  reminder?: '24h' | '2h';
  /** receipt: the payment. */
  amountCents?: number;
  currency?: string;
  transactionId?: string;
  paidAt?: string;
  /** offer: the offer to accept or decline, and until when it holds. */
  offerId?: string;
  expiresAt?: string;
}

/**
 * Queues a mail about booking `bookingId` to its patient, with the booking as it is at that point
 * of the batch, when `onlyIf` (SQL on `b`) holds. A second mail with the same `dedupeKey` is not
 * queued: put it in the batch of the change it reports, whatever the retries.
 */
export function queueBookingMail(
  db: D1Database,
  mail: {
    kind: MailKind;
    dedupeKey: string;
    bookingId: string;
    now: Date;
    extra?: Partial<MailData>;
    onlyIf?: string;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT ?1, ?2, ?3, b.email, b.id, json_patch(${BOOKING_SNAPSHOT}, ?5), ?6, ?6
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE b.id = ?4 AND ${mail.onlyIf ?? 'true'}
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(
      crypto.randomUUID(),
      mail.dedupeKey,
      mail.kind,
      mail.bookingId,
      JSON.stringify(mail.extra ?? {}),
      mail.now.toISOString(),
    );
}

/**
 * Queues the cancellation mail of every booking released for non-payment at `at` (the instant the
 * releasing statements wrote into cancelled_at): put it after them in their batch.
 */
export function queueReleaseMails(db: D1Database, at: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT lower(hex(randomblob(16))), 'cancellation:' || b.id, 'cancellation', b.email, b.id,
         json_patch(${BOOKING_SNAPSHOT}, json_object('by', 'unpaid')), ?1, ?1
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE b.cancel_reason = 'unpaid' AND b.cancelled_at = ?1
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(at.toISOString());
}

/**
 * Queues, for every upcoming booking `change` strands that was not marked for review yet, one plain
 * mail saying the clinic will call: put it before markStranded in the change's batch.
 */
export function queueStrandedMails(
  db: D1Database,
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
): D1PreparedStatement {
  const { where, params } = strandedWhere(change, clock);
  const at = `?${params.length + 1}`;
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT lower(hex(randomblob(16))), 'stranded:' || b.id || ':' || ${at}, 'stranded', b.email, b.id,
         ${BOOKING_SNAPSHOT}, ${at}, ${at}
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE b.needs_review = 0 AND ${where}
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(...params, clock.now.toISOString());
}

/** Queues the mail of every open offer `change` withdraws: put it before the withdrawal in the change's batch. */
export function queueWithdrawnOfferMails(
  db: D1Database,
  change: ScheduleChange,
  clock: { date: string; minute: number; now: Date },
): D1PreparedStatement {
  const { where, params } = offersStrandedWhere(change, clock);
  const at = `?${params.length + 1}`;
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, data, next_attempt_at, created_at)
       SELECT lower(hex(randomblob(16))), 'offer_withdrawn:' || o.id, 'offer_withdrawn', u.email,
         ${OFFER_SNAPSHOT}, ${at}, ${at}
       FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id JOIN users u ON u.id = w.user_id
         JOIN treatments t ON t.id = o.treatment_id LEFT JOIN doctors d ON d.id = o.doctor_id
       WHERE ${where}
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(...params, clock.now.toISOString());
}

/**
 * Queues the receipt of a payment that paid its booking (not one recorded to be refunded): put it
 * after the statements that record the payment and mark the booking paid.
 */
export function queueReceipt(db: D1Database, transactionId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT ?1, 'receipt:' || p.transaction_id, 'receipt', b.email, b.id,
         json_patch(${BOOKING_SNAPSHOT}, json_object('amountCents', p.amount_cents, 'currency', p.currency,
           'transactionId', p.transaction_id, 'paidAt', p.created_at)), ?3, ?3
       FROM payments p JOIN bookings b ON b.id = p.booking_id LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE p.transaction_id = ?2 AND p.refund_status IS NULL AND b.paid = 1
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), transactionId, now.toISOString());
}

/**
 * Queues the reminder mail of each reminder claimed with `token` whose booking, re-read in this very
 * statement, is still active (and not released) at the same version and start, whose patient wants
 * reminders, whose kind the clinic sends, and that is not too late at `now`.
 */
export function queueClaimedReminders(db: D1Database, token: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, booking_version, data, next_attempt_at, created_at)
       SELECT lower(hex(randomblob(16))), 'reminder:' || r.id, 'reminder', b.email, b.id, b.version,
         json_patch(${BOOKING_SNAPSHOT}, json_object('reminder', r.kind)), ?2, ?2
       FROM reminders r
         JOIN bookings b ON b.id = r.booking_id
         JOIN users u ON u.id = b.user_id
         LEFT JOIN doctors d ON d.id = b.doctor_id
         JOIN message_settings s ON s.id = 1
       WHERE r.claim_token = ?1 AND r.status = 'claimed' AND r.send_until > ?2
         AND b.status = 'active' AND ${liveBooking('b', '?2')} AND b.version = r.booking_version
         AND b.appointment_date = r.appointment_date AND b.start_minute = r.start_minute
         AND b.needs_review = 0 AND u.reminders_opt_out = 0 AND (r.kind = '24h' OR s.second_reminder = 1)
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(token, now.toISOString());
}

/** Queues the mail of a waitlist offer (its id, `offerId`), to the patient of its entry. */
export function queueOfferMail(db: D1Database, offerId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, data, next_attempt_at, created_at)
       SELECT ?1, 'offer:' || o.id, 'offer', u.email, ${OFFER_SNAPSHOT}, ?3, ?3
       FROM waitlist_offers o
         JOIN waitlist w ON w.id = o.entry_id
         JOIN users u ON u.id = w.user_id
         JOIN treatments t ON t.id = o.treatment_id
         LEFT JOIN doctors d ON d.id = o.doctor_id
       WHERE o.id = ?2
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), offerId, now.toISOString());
}

export interface OutboxRow {
  id: string;
  kind: MailKind;
  recipient: string;
  data: string;
  attempts: number;
  /** 1 when it is a reminder whose booking is no longer active at its version and time: not to be sent. */
  stale: number;
}

/**
 * Claims up to `limit` mails due at `now` (compare-and-set: a row is free when no sender holds it,
 * or its holder's claim ran out) for `leaseMs`, counting the attempt. RETURNING the rows.
 */
export function claimDueMail(
  db: D1Database,
  token: string,
  now: Date,
  leaseMs: number,
  limit: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE outbox SET claim_token = ?1, claimed_until = ?3, attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM outbox
         WHERE status = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2)
         ORDER BY next_attempt_at LIMIT ?4)
       RETURNING id, kind, recipient, data, attempts,
         (booking_version IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM bookings b WHERE b.id = outbox.booking_id AND b.status = 'active' AND b.needs_review = 0
             AND ${liveBooking('b', '?2')} AND b.version = outbox.booking_version
             AND b.appointment_date = json_extract(outbox.data, '$.date')
             AND b.start_minute = json_extract(outbox.data, '$.startMinute'))) AS stale`,
    )
    .bind(token, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit);
}

/** Marks a claimed mail sent (only while `token` still holds it). */
export function markMailSent(db: D1Database, id: string, token: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE outbox SET status = 'sent', sent_at = ?3, claim_token = NULL, claimed_until = NULL, last_error = NULL
       WHERE id = ?1 AND claim_token = ?2`,
    )
    .bind(id, token, now.toISOString());
}

/** Marks a claimed mail not to be sent, and why. */
export function markMailDropped(db: D1Database, id: string, token: string, why: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE outbox SET status = 'dropped', last_error = ?3, claim_token = NULL, claimed_until = NULL
       WHERE id = ?1 AND claim_token = ?2`,
    )
    .bind(id, token, why);
}

/** A send that failed: tried again at `retryAt`, or given up ('failed') after `maxAttempts`. */
export function markMailFailed(
  db: D1Database,
  id: string,
  token: string,
  failure: { error: string; retryAt: Date; maxAttempts: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE outbox SET status = CASE WHEN attempts >= ?5 THEN 'failed' ELSE 'pending' END,
         next_attempt_at = ?3, last_error = ?4, claim_token = NULL, claimed_until = NULL
       WHERE id = ?1 AND claim_token = ?2`,
    )
    .bind(id, token, failure.retryAt.toISOString(), failure.error.slice(0, 500), failure.maxAttempts);
}
