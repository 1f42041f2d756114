/**
 * What the clinic holds about an account (docs/product-booking.md#your-data): read for the export, one
 * statement per kind, all keyed by the account holder and the people in their account, so nothing
 * of anyone else can come along.
 */

export interface ExportRows {
  people: Record<string, unknown>[];
  bookings: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  reviews: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  forms: { patient_id: string; booking_id: string | null; response: string; signed_name: string | null }[];
  recalls: Record<string, unknown>[];
  waitlist: Record<string, unknown>[];
}

/** The account holder ?1 and their dependants. */
const PEOPLE = 'SELECT id FROM users WHERE (id = ?1 OR guardian_id = ?1) AND erased_at IS NULL';
const BOOKINGS = `SELECT id FROM bookings WHERE user_id IN (${PEOPLE})`;

export async function exportRows(db: D1Database, accountId: string): Promise<ExportRows> {
  const read = (sql: string) => db.prepare(sql).bind(accountId);
  const [people, bookings, payments, reviews, messages, forms, recalls, waitlist] = await db.batch([
    read(
      `SELECT id, name, email, role, birth_date, relationship, guardian_id, sms_phone, sms_consent, sms_stopped,
         reminders_opt_out, email_verified, created_at
       FROM users WHERE (id = ?1 OR guardian_id = ?1) AND erased_at IS NULL ORDER BY guardian_id IS NOT NULL, name`,
    ),
    read(
      `SELECT b.id, b.user_id, b.patient_name, b.treatment, b.appointment_date, b.slot, b.start_minute,
         b.duration_minutes, b.status, b.cancel_reason, b.cancel_note, b.price_cents, b.paid, b.phone,
         d.name AS doctor, b.family_visit_id, b.confirmation, b.created_at, b.cancelled_at
       FROM bookings b LEFT JOIN doctors d ON d.id = b.doctor_id
       WHERE b.user_id IN (${PEOPLE}) ORDER BY b.appointment_date, b.start_minute, b.id`,
    ),
    read(
      `SELECT coalesce(p.intent_id, p.transaction_id) AS transaction_id, p.booking_id, p.amount_cents, p.currency,
         p.provider, p.method, p.card_brand, p.card_last4, p.created_at, p.refund_status, p.refund_reason,
         p.refund_amount_cents, p.refund_updated_at
       FROM payments p WHERE p.booking_id IN (${BOOKINGS}) ORDER BY p.created_at, p.id`,
    ),
    read('SELECT id, name, review, location, status, created_at FROM reviews WHERE user_id = ?1 ORDER BY created_at'),
    read(
      `SELECT o.kind, o.channel, o.status, o.created_at, o.sent_at, o.booking_id FROM outbox o
       WHERE o.booking_id IN (${BOOKINGS})
          OR o.recipient IN (SELECT email FROM users WHERE id = ?1)
          OR o.recipient IN (SELECT sms_phone FROM users WHERE id = ?1 AND sms_phone IS NOT NULL)
       ORDER BY o.created_at, o.id`,
    ),
    read(
      `SELECT patient_id, booking_id, response, signed_name FROM form_responses
       WHERE patient_id IN (${PEOPLE}) ORDER BY created_at, id`,
    ),
    read(
      `SELECT r.patient_id, t.name AS treatment, r.due_date, r.status, r.attempts, r.do_not_contact
       FROM recalls r JOIN treatments t ON t.id = r.treatment_id WHERE r.patient_id IN (${PEOPLE}) ORDER BY r.due_date`,
    ),
    read(
      `SELECT w.treatment_id, w.from_date, w.to_date, w.status, w.created_at FROM waitlist w
       WHERE w.user_id = ?1 ORDER BY w.created_at`,
    ),
  ]);
  const rows = <T>(result: D1Result | undefined) => (result?.results ?? []) as T[];
  return {
    people: rows(people),
    bookings: rows(bookings),
    payments: rows(payments),
    reviews: rows(reviews),
    messages: rows(messages),
    forms: rows(forms),
    recalls: rows(recalls),
    waitlist: rows(waitlist),
  };
}

/** The account's dependants (to erase with it). */
export async function dependantIds(db: D1Database, accountId: string): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT id FROM users WHERE guardian_id = ?1 AND erased_at IS NULL')
    .bind(accountId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/**
 * What erasure removes beyond the record's anonymisation (booking/data/writes.ts erasePatient): the
 * person's form answers, SMS number and consent, date of birth, calendar feeds and recalls.
 */
export function eraseRecords(db: D1Database, userId: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM form_responses WHERE patient_id = ?1').bind(userId),
    db
      .prepare(
        'UPDATE users SET sms_phone = NULL, sms_consent = 0, birth_date = NULL, relationship = NULL WHERE id = ?1',
      )
      .bind(userId),
    db
      .prepare(`UPDATE calendar_feeds SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE owner_type = 'patient' AND owner_id = ?1 AND revoked_at IS NULL`)
      .bind(userId),
    db.prepare(`UPDATE recalls SET status = 'closed', do_not_contact = 1 WHERE patient_id = ?1`).bind(userId),
  ];
}

/** The most personal values of one person a pseudonymisation replaces (D1 binds at most 100 parameters a statement). */
const MAX_PERSONAL_VALUES = 24;

/**
 * What names a person (`userId`) in the clinic's records: the names, addresses, phone numbers and
 * typed signatures on their record, their bookings and their forms. Read before an erasure, which
 * then replaces each in the audit trail (pseudonymiseAuditOf).
 */
export async function personalValuesOf(db: D1Database, userId: string): Promise<string[]> {
  const found = await db.batch<Record<string, string | null>>([
    db.prepare('SELECT name, email, sms_phone FROM users WHERE id = ?1').bind(userId),
    db.prepare('SELECT DISTINCT patient_name, email, phone FROM bookings WHERE user_id = ?1').bind(userId),
    db.prepare('SELECT DISTINCT signed_name FROM form_responses WHERE patient_id = ?1').bind(userId),
  ]);
  const values = new Set(
    found.flatMap((result) => result.results.flatMap((row) => Object.values(row))).map((value) => value?.trim() ?? ''),
  );
  return [...values]
    .filter((value) => value.length >= 3)
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_PERSONAL_VALUES);
}

/** The name an erased person has in the audit trail: the same for every row, so the trail still reads as one person. */
export const pseudonymOf = (userId: string) => `Erased patient ${userId.slice(0, 8)}`;

/**
 * Pseudonymises, once, every audit row about person `userId` (as the actor, or as the user, booking,
 * payment, recall or SMS number it is about): each of their personal `values` becomes their
 * pseudonym in the target's name and the before/after fields, the actor's address becomes the
 * erased placeholder, and the free text that described them (the front desk's notes) is removed.
 * Who acted, what was done and when stay. Longest values first, so that "Ann Lee" goes before "Ann".
 */
export function pseudonymiseAuditOf(db: D1Database, userId: string, values: string[], now: Date): D1PreparedStatement {
  const params: unknown[] = [userId, pseudonymOf(userId), `erased-${userId}@erased.invalid`, now.toISOString()];
  const param = (value: unknown) => {
    params.push(value);
    return `?${params.length}`;
  };
  const replaced = (sql: string, quoted: boolean) =>
    values.reduce(
      (inner, value) => `replace(${inner}, ${param(quoted ? JSON.stringify(value).slice(1, -1) : value)}, ?2)`,
      sql,
    );
  const fields = (column: string) =>
    `CASE WHEN ${column} IS NULL THEN NULL ELSE json(${replaced(
      `CASE WHEN json_type(${column}, '$.note') = 'text' THEN json_set(${column}, '$.note', 'removed on erasure') ELSE ${column} END`,
      true,
    )}) END`;
  return db
    .prepare(
      `UPDATE audit_log SET redacted_at = ?4,
         actor_email = CASE WHEN actor_id = ?1 THEN ?3 ELSE actor_email END,
         target_id = CASE WHEN target_type = 'sms' THEN ?2 ELSE target_id END,
         target_name = ${replaced('target_name', false)},
         before = ${fields('before')},
         after = ${fields('after')}
       WHERE redacted_at IS NULL AND (actor_id = ?1
         OR (target_type = 'user' AND target_id = ?1)
         OR (target_type = 'booking' AND target_id IN (SELECT id FROM bookings WHERE user_id = ?1))
         OR (target_type = 'payment' AND target_id IN (
               SELECT p.transaction_id FROM payments p JOIN bookings b ON b.id = p.booking_id WHERE b.user_id = ?1))
         OR (target_type = 'recall' AND target_id IN (SELECT id FROM recalls WHERE patient_id = ?1))
         OR (target_type = 'sms' AND target_id IN (SELECT value FROM json_each(${param(JSON.stringify(values))}))))`,
    )
    .bind(...params);
}
