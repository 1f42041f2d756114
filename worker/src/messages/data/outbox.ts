import { INVITES_PER_ACCOUNT_PER_DAY } from '../../../../contract/family.ts';
import { liveBooking } from '../../booking/data/bookings.ts';
import type { OutboxMessage } from '../../platform/event-types.ts';

/** The kinds of mail a patient gets. */
export type MailKind =
  | 'confirmation'
  | 'reschedule'
  | 'cancellation'
  | 'receipt'
  | 'refund'
  | 'pay_soon'
  | 'reminder'
  | 'offer'
  | 'stranded'
  | 'offer_withdrawn'
  | 'recall'
  | 'record_invite'
  | 'fee';

/**
 * SQL: what a mail needs of booking `b` (and its doctor `d`), as a JSON object, taken when the mail
 * is queued: the mail tells what was true at that moment.
 */
const BOOKING_SNAPSHOT = `json_object('bookingId', b.id, 'treatment', b.treatment, 'date', b.appointment_date,
  'startMinute', b.start_minute, 'durationMinutes', b.duration_minutes, 'patientName', b.patient_name,
  'doctor', d.name, 'priceCents', b.price_cents, 'paid', b.paid, 'holdUntil', b.hold_until, 'depositCents', b.deposit_cents,
  'cancelReason', b.cancel_reason, 'calendarUid', coalesce(b.calendar_uid, b.id), 'version', b.version,
  'phone', nullif(trim(b.phone), ''),
  'formsToFill', (SELECT count(*) FROM booking_forms bf WHERE bf.booking_id = b.id AND bf.status != 'filled'),
  'guardianName', (SELECT g.name FROM users p JOIN users g ON g.id = p.guardian_id WHERE p.id = b.user_id),
  'language', (SELECT coalesce(g.language, p.language) FROM users p LEFT JOIN users g ON g.id = p.guardian_id
    WHERE p.id = b.user_id))`;

/** SQL: what a mail about waitlist offer `o` needs (its treatment `t`, doctor `d`, patient `u`). */
const OFFER_SNAPSHOT = `json_object('offerId', o.id, 'treatment', t.name, 'date', o.day, 'startMinute', o.start_minute,
  'durationMinutes', o.duration_minutes, 'patientName', u.name, 'doctor', d.name, 'priceCents', t.price_cents,
  'expiresAt', o.expires_at, 'language', coalesce((SELECT g.language FROM users g WHERE g.id = u.guardian_id), u.language))`;

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
  /** A deposit booking's share paid online (null: the whole price). */
  depositCents?: number | null;
  cancelReason: string | null;
  /** The phone number the booking has (null: none, so nobody can call the patient about it). */
  phone?: string | null;
  /** A dependant's visit: the account holder's name, whom the mail addresses (null otherwise). */
  guardianName?: string | null;
  /** The language of the account the message goes to (the account holder's for a dependant); null: none. */
  language?: string | null;
  /** The appointment's calendar UID for its whole life, and the booking's version (the SEQUENCE). */
  calendarUid?: string;
  version?: number;
  /** cancellation: who cancelled ('patient', 'admin', 'unpaid'), and why (the clinic's words). */
  by?: string;
  reason?: string | null;
  /** reschedule: the time it had before. */
  from?: { date: string; startMinute: number };
  /** reminder: which one, and how many of the visit's forms are still to fill. */
  reminder?: '24h' | '2h';
  formsToFill?: number;
  /** receipt: the payment; refund: the money given back, and the card it went to ("Visa ending 4242"). */
  card?: string | null;
  /** A refund handed back at the desk (1), not to a card. */
  atDesk?: number;
  amountCents?: number;
  currency?: string;
  transactionId?: string;
  paidAt?: string;
  /** fee: which, what came of it, why a charge failed, whether a waived one was refunded. */
  feeId?: string;
  feeKind?: 'no_show' | 'late_cancel';
  feeStatus?: 'charged' | 'unpaid' | 'paid' | 'waived';
  failure?: string | null;
  refunded?: number;
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
 * Queues the "pay soon" mail (and text, BOTH_CHANNELS) of unpaid booking `bookingId` (active at this point of the batch): due
 * the clinic's `pay_soon_hours` before its hold ends, when that is still ahead of `now` (a short hold
 * the patient just saw gets none). The sender drops it when the booking was paid, moved, cancelled
 * or released by then (claimDueMail's `stale`).
 */
export function queuePaySoon(db: D1Database, bookingId: string, now: Date): D1PreparedStatement {
  const due = "strftime('%Y-%m-%dT%H:%M:%fZ', b.hold_until, '-' || s.pay_soon_hours || ' hours')";
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, channel, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT ${BOTH_CHANNELS.id}, 'pay_soon:' || b.id ${BOTH_CHANNELS.suffix}, 'pay_soon', c.channel,
         ${BOTH_CHANNELS.recipient}, b.id, ${BOOKING_SNAPSHOT}, ${due}, ?3
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id JOIN message_settings s ON s.id = 1 ${BOTH_CHANNELS.joins}
       WHERE b.id = ?2 AND b.status = 'active' AND b.paid = 0 AND b.hold_until IS NOT NULL AND ${BOTH_CHANNELS.where}
         AND s.pay_soon_hours > 0 AND ${due} > ?3
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), bookingId, now.toISOString());
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
           'transactionId', coalesce(p.intent_id, p.transaction_id), 'paidAt', p.created_at)), ?3, ?3
       FROM payments p JOIN bookings b ON b.id = p.booking_id LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE p.transaction_id = ?2 AND p.refund_status IS NULL AND b.paid = 1
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), transactionId, now.toISOString());
}

/**
 * SQL: account `a` takes SMS (a number, consent, and no STOP). A family's messages go to its account
 * holder, under the holder's settings: `a` is the patient's account (users a ON a.id =
 * coalesce(u.guardian_id, u.id)), never a dependant's own row.
 */
const SMS_ALLOWED = (a: string) => `(${a}.sms_phone IS NOT NULL AND ${a}.sms_consent = 1 AND ${a}.sms_stopped = 0)`;

/**
 * SQL pieces that queue a message about booking `b` on both channels: the mail to the booking's
 * address, and a text to its account's number where the account takes texts (SMS_ALLOWED). The
 * text's dedupe key is the mail's with ':sms'; each row gets an id of its own (the mail ?1).
 */
const BOTH_CHANNELS = {
  id: "CASE c.channel WHEN 'mail' THEN ?1 ELSE lower(hex(randomblob(16))) END",
  suffix: "|| CASE c.channel WHEN 'sms' THEN ':sms' ELSE '' END",
  recipient: "CASE c.channel WHEN 'sms' THEN a.sms_phone ELSE b.email END",
  joins: `JOIN users u ON u.id = b.user_id JOIN users a ON a.id = coalesce(u.guardian_id, u.id)
       JOIN (SELECT 'mail' AS channel UNION ALL SELECT 'sms') c`,
  where: `(c.channel = 'mail' OR ${SMS_ALLOWED('a')})`,
};

/** SQL: the card of row `x` (its card_brand and card_last4) in words, "Visa ending 4242", or NULL. */
const CARD_TEXT = (x: string) =>
  `CASE WHEN ${x}.card_last4 IS NULL THEN NULL ELSE upper(substr(${x}.card_brand, 1, 1)) || substr(${x}.card_brand, 2) || ' ending ' || ${x}.card_last4 END`;

/**
 * Queues the mail (and text, BOTH_CHANNELS) of fee `feeId` as it now stands (charged, unpaid with its pay link, paid or
 * waived), once per state; nothing while it is being charged.
 */
export function queueFeeMail(db: D1Database, feeId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, channel, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT ${BOTH_CHANNELS.id}, 'fee:' || f.id || ':' || f.status ${BOTH_CHANNELS.suffix}, 'fee', c.channel,
         ${BOTH_CHANNELS.recipient}, b.id,
         json_patch(${BOOKING_SNAPSHOT}, json_object('feeId', f.id, 'feeKind', f.kind, 'feeStatus', f.status,
           'amountCents', f.amount_cents, 'currency', 'usd', 'card', ${CARD_TEXT('f')}, 'failure', f.failure,
           'refunded', f.refund_id IS NOT NULL, 'transactionId', f.transaction_id)), ?3, ?3
       FROM fees f JOIN bookings b ON b.id = f.booking_id LEFT JOIN doctors d ON d.id = b.doctor_id ${BOTH_CHANNELS.joins}
       WHERE f.id = ?2 AND f.status != 'charging' AND ${BOTH_CHANNELS.where}
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), feeId, now.toISOString());
}

/**
 * Queues the notice (mail, and text: BOTH_CHANNELS) that the refund of payment `transactionId` was made (the provider confirmed it),
 * to its booking's patient, once per payment.
 */
export function queueRefundNotice(db: D1Database, transactionId: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, channel, recipient, booking_id, data, next_attempt_at, created_at)
       SELECT ${BOTH_CHANNELS.id}, 'refund:' || p.transaction_id ${BOTH_CHANNELS.suffix}, 'refund', c.channel,
         ${BOTH_CHANNELS.recipient}, b.id,
         json_patch(${BOOKING_SNAPSHOT}, json_object('amountCents', coalesce(p.refund_amount_cents, p.amount_cents),
           'currency', p.currency, 'transactionId', coalesce(p.refund_id, p.transaction_id),
           'card', ${CARD_TEXT('p')},
           'atDesk', p.provider = 'desk')), ?3, ?3
       FROM payments p JOIN bookings b ON b.id = p.booking_id LEFT JOIN doctors d ON d.id = b.doctor_id ${BOTH_CHANNELS.joins}
       WHERE p.transaction_id = ?2 AND p.refund_status = 'succeeded' AND ${BOTH_CHANNELS.where}
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
      `INSERT INTO outbox (id, dedupe_key, kind, channel, recipient, booking_id, booking_version, data, next_attempt_at, created_at)
       SELECT lower(hex(randomblob(16))), 'reminder:' || r.id || CASE c.channel WHEN 'sms' THEN ':sms' ELSE '' END,
         'reminder', c.channel, CASE c.channel WHEN 'sms' THEN a.sms_phone ELSE b.email END, b.id, b.version,
         json_patch(${BOOKING_SNAPSHOT}, json_object('reminder', r.kind, 'formsToFill',
           (SELECT count(*) FROM booking_forms bf WHERE bf.booking_id = b.id AND bf.status != 'filled'))), ?2, ?2
       FROM reminders r
         JOIN bookings b ON b.id = r.booking_id
         JOIN users u ON u.id = b.user_id
         JOIN users a ON a.id = coalesce(u.guardian_id, u.id)
         LEFT JOIN doctors d ON d.id = b.doctor_id
         JOIN message_settings s ON s.id = 1
         JOIN (SELECT 'mail' AS channel UNION ALL SELECT 'sms') c
       WHERE r.claim_token = ?1 AND r.status = 'claimed' AND r.send_until > ?2
         AND b.status = 'active' AND ${liveBooking('b', '?2')} AND b.version = r.booking_version
         AND b.appointment_date = r.appointment_date AND b.start_minute = r.start_minute
         AND b.needs_review = 0 AND a.reminders_opt_out = 0 AND (r.kind = '24h' OR s.second_reminder = 1)
         AND (c.channel = 'mail' OR (${SMS_ALLOWED('a')} AND r.kind = '24h'))
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(token, now.toISOString());
}

/**
 * SQL: recall `r` of patient `u` (account `a`) still wants its messages at ?1 (today): open, not
 * stopped, the account not opted out, the patient not erased or booked.
 */
const RECALL_LIVE = (r: string, u: string, a: string, today: string) => `(${r}.status IN ('due', 'contacted')
  AND ${r}.do_not_contact = 0 AND ${a}.reminders_opt_out = 0 AND ${u}.erased_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM bookings bb WHERE bb.user_id = ${r}.patient_id AND bb.treatment_id = ${r}.treatment_id
    AND bb.status = 'active' AND bb.appointment_date >= ${today}))`;

/**
 * Queues, for each recall that still wants messages on `today`, the latest step of the clinic's
 * sequence that is due (a step is due `step` days from the due date), by mail and, where the patient
 * agreed, by SMS: once per (recall, step, channel), whatever the runs; then counts each recall's
 * attempts (steps sent) and marks it contacted. Two statements for one batch.
 *
 * A family's recalls go out together: the steps of every live recall of one account (its holder's
 * and its dependants') due in the same month count from the earliest of their due dates, so they
 * are queued in the same run, each row naming its `family` (account and month); the sender makes
 * them one message offering a family visit.
 */
export function queueRecallMessages(db: D1Database, today: string, now: Date): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO outbox (id, dedupe_key, kind, channel, recipient, data, next_attempt_at, created_at)
         SELECT lower(hex(randomblob(16))), 'recall:' || r.id || ':' || s.step || ':' || c.channel, 'recall', c.channel,
           CASE WHEN c.channel = 'sms' THEN a.sms_phone
                WHEN u.guardian_id IS NOT NULL THEN (SELECT g.email FROM users g WHERE g.id = u.guardian_id)
                ELSE u.email END,
           json_object('recallId', r.id, 'treatment', t.name, 'dueDate', r.due_date, 'patientName', u.name, 'step', s.step,
             'family', coalesce(u.guardian_id, u.id) || ':' || substr(r.due_date, 1, 7), 'familyDue', s.family_due,
             'accountName', coalesce((SELECT g.name FROM users g WHERE g.id = u.guardian_id), u.name),
             'language', a.language), ?2, ?2
         FROM (SELECT f.recall_id, f.family_due, max(j.value) AS step
                 FROM (SELECT r2.id AS recall_id, (
                          SELECT min(r3.due_date) FROM recalls r3 JOIN users u3 ON u3.id = r3.patient_id
                           WHERE r3.status IN ('due', 'contacted') AND r3.do_not_contact = 0
                             AND coalesce(u3.guardian_id, u3.id) = coalesce(u2.guardian_id, u2.id)
                             AND substr(r3.due_date, 1, 7) = substr(r2.due_date, 1, 7)) AS family_due
                         FROM recalls r2 JOIN users u2 ON u2.id = r2.patient_id
                        WHERE r2.status IN ('due', 'contacted')) f,
                      message_settings m, json_each(m.recall_steps) j
                WHERE m.id = 1 AND date(f.family_due, j.value || ' days') <= ?1
                GROUP BY f.recall_id) s
           JOIN recalls r ON r.id = s.recall_id
           JOIN users u ON u.id = r.patient_id
           JOIN users a ON a.id = coalesce(u.guardian_id, u.id)
           JOIN treatments t ON t.id = r.treatment_id
           JOIN (SELECT 'mail' AS channel UNION ALL SELECT 'sms') c
         WHERE ${RECALL_LIVE('r', 'u', 'a', '?1')} AND (c.channel = 'mail' OR ${SMS_ALLOWED('a')})
         ON CONFLICT (dedupe_key) DO NOTHING`,
      )
      .bind(today, now.toISOString()),
    db
      .prepare(
        `UPDATE recalls SET status = 'contacted', last_contact_at = ?1,
           attempts = (SELECT count(DISTINCT json_extract(o.data, '$.step')) FROM outbox o
                        WHERE o.dedupe_key > 'recall:' || recalls.id || ':' AND o.dedupe_key < 'recall:' || recalls.id || ';')
         WHERE status IN ('due', 'contacted') AND EXISTS (SELECT 1 FROM outbox o
           WHERE o.dedupe_key > 'recall:' || recalls.id || ':' AND o.dedupe_key < 'recall:' || recalls.id || ';'
             AND o.created_at = ?1)`,
      )
      .bind(now.toISOString()),
  ];
}

/**
 * Queues the invitation of dependant `dependantId` (still without a sign-in) to claim their record
 * at `email`, on the clinic's day `today`: at most once a day per dependant (the dedupe key) and
 * INVITES_PER_ACCOUNT_PER_DAY a day per account, both decided in this statement. The mail's text is
 * the clinic's own: no name or word the account typed, so nobody can make the clinic mail a stranger
 * a text of theirs. 0 changes: not queued.
 */
export function queueRecordInvite(
  db: D1Database,
  dependantId: string,
  email: string,
  today: string,
  now: Date,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, data, next_attempt_at, created_at)
       SELECT ?1, 'record_invite:' || p.id || ':' || ?4, 'record_invite', ?3,
         json_object('accountId', p.guardian_id, 'language', p.language), ?5, ?5
       FROM users p WHERE p.id = ?2 AND p.guardian_id IS NOT NULL AND p.firebase_uid IS NULL
         AND (SELECT count(*) FROM outbox o WHERE o.kind = 'record_invite'
                AND json_extract(o.data, '$.accountId') = p.guardian_id AND o.dedupe_key LIKE '%:' || ?4) < ${INVITES_PER_ACCOUNT_PER_DAY}
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), dependantId, email, today, now.toISOString());
}

/** Queues the mail of a waitlist offer (its id, `offerId`) made or withdrawn, to the patient of its entry. */
export function queueOfferMail(
  db: D1Database,
  offerId: string,
  now: Date,
  kind: 'offer' | 'offer_withdrawn' = 'offer',
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, data, next_attempt_at, created_at)
       SELECT ?1, ?4 || ':' || o.id, ?4, u.email, ${OFFER_SNAPSHOT}, ?3, ?3
       FROM waitlist_offers o
         JOIN waitlist w ON w.id = o.entry_id
         JOIN users u ON u.id = w.user_id
         JOIN treatments t ON t.id = o.treatment_id
         LEFT JOIN doctors d ON d.id = o.doctor_id
       WHERE o.id = ?2
       ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), offerId, now.toISOString(), kind);
}

/** A claimed message (as it travels on the queue: platform/events.ts OutboxMessage), of a kind the sender knows. */
export interface OutboxRow extends OutboxMessage {
  kind: MailKind;
}

/**
 * Claims up to `limit` mails due at `now` (compare-and-set: a row is free when no sender holds it,
 * or its holder's claim ran out) for `leaseMs`, counting the attempt. RETURNING the rows. A family's
 * recall messages are claimed together (every due recall row to a recipient among them), so the
 * sender can make them one message.
 */
export function claimDueMail(
  db: D1Database,
  token: string,
  now: Date,
  leaseMs: number,
  limit: number,
  today: string,
): D1PreparedStatement {
  return db
    .prepare(
      `WITH first AS (
         SELECT id, kind, recipient FROM outbox
         WHERE status = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2)
         ORDER BY next_attempt_at, recipient LIMIT ?4)
       UPDATE outbox SET claim_token = ?1, claimed_until = ?3, attempts = attempts + 1
       WHERE id IN (SELECT id FROM first)
         OR (kind = 'recall' AND status = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2)
           AND recipient IN (SELECT recipient FROM first WHERE kind = 'recall'))
       RETURNING id, kind, channel, recipient, data, attempts,
         CASE WHEN kind = 'recall' THEN NOT EXISTS (
           SELECT 1 FROM recalls r JOIN users u ON u.id = r.patient_id JOIN users a ON a.id = coalesce(u.guardian_id, u.id)
            WHERE r.id = json_extract(outbox.data, '$.recallId') AND ${RECALL_LIVE('r', 'u', 'a', '?5')}
              AND (outbox.channel = 'mail' OR ${SMS_ALLOWED('a')}))
         WHEN kind = 'pay_soon' THEN NOT EXISTS (
           SELECT 1 FROM bookings b WHERE b.id = outbox.booking_id AND b.status = 'active' AND b.paid = 0
             AND b.hold_until > ?2)
         ELSE (booking_version IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM bookings b WHERE b.id = outbox.booking_id AND b.status = 'active' AND b.needs_review = 0
             AND ${liveBooking('b', '?2')} AND b.version = outbox.booking_version
             AND b.appointment_date = json_extract(outbox.data, '$.date')
             AND b.start_minute = json_extract(outbox.data, '$.startMinute'))) END AS stale`,
    )
    .bind(token, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit, today);
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

/** Of the messages `ids`, those `token` still holds (answers their ids). */
export async function stillHeld(db: D1Database, ids: string[], token: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT id FROM outbox WHERE id IN (SELECT value FROM json_each(?1)) AND claim_token = ?2 AND status = 'pending'`,
    )
    .bind(JSON.stringify(ids), token)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** Puts a claimed message off until `at` without counting an attempt (an SMS in the quiet hours). */
export function deferMessage(db: D1Database, id: string, token: string, at: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE outbox SET next_attempt_at = ?3, attempts = max(attempts - 1, 0), claim_token = NULL, claimed_until = NULL
       WHERE id = ?1 AND claim_token = ?2`,
    )
    .bind(id, token, at.toISOString());
}

/** The booking and version of the latest SMS sent to `phone` about a booking: what a reply acts on. */
export function latestSmsBooking(
  db: D1Database,
  phone: string,
): Promise<{ booking_id: string; booking_version: number } | null> {
  return db
    .prepare(
      `SELECT booking_id, booking_version FROM outbox
       WHERE channel = 'sms' AND recipient = ?1 AND status = 'sent' AND booking_id IS NOT NULL AND booking_version IS NOT NULL
       ORDER BY sent_at DESC LIMIT 1`,
    )
    .bind(phone)
    .first();
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
