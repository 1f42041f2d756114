import { liveBooking } from '../../booking/data/bookings.ts';

/** A reminder's kind: 24 hours before the appointment, and 2 hours before when the clinic turns it on. */
export type ReminderKind = '24h' | '2h';

/**
 * Records reminder `kind` of a booking that is active at this point of the batch, with the
 * booking's current version and start, due at `dueAt` and sent no later than `sendUntil`; only when
 * it is due after `now` (a reminder whose time has passed when the booking is made is not sent at
 * booking time). Its id is `<booking>:<kind>:<version>`: once per (booking, kind, version).
 */
export function insertReminder(
  db: D1Database,
  reminder: { bookingId: string; kind: ReminderKind; dueAt: Date; sendUntil: Date; now: Date },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO reminders (id, booking_id, kind, booking_version, appointment_date, start_minute, due_at, send_until)
       SELECT b.id || ':' || ?2 || ':' || b.version, b.id, ?2, b.version, b.appointment_date, b.start_minute, ?3, ?4
       FROM bookings b WHERE b.id = ?1 AND b.status = 'active' AND ?3 > ?5
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      reminder.bookingId,
      reminder.kind,
      reminder.dueAt.toISOString(),
      reminder.sendUntil.toISOString(),
      reminder.now.toISOString(),
    );
}

/**
 * Claims up to `limit` reminders due at `now` (compare-and-set: pending ones, or ones whose claim
 * ran out, its run having died) with `token` until `now + leaseMs`. RETURNING their ids.
 */
export function claimDueReminders(
  db: D1Database,
  token: string,
  now: Date,
  leaseMs: number,
  limit: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE reminders SET status = 'claimed', claim_token = ?1, claimed_until = ?3
       WHERE id IN (
         SELECT id FROM reminders
         WHERE due_at <= ?2 AND (status = 'pending' OR (status = 'claimed' AND claimed_until <= ?2))
         ORDER BY due_at LIMIT ?4)
       RETURNING id`,
    )
    .bind(token, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit);
}

/**
 * Closes the reminders claimed with `token` (after queueClaimedReminders in the same batch): 'sent'
 * when its mail was queued, else 'skipped' with the reason.
 */
export function closeClaimedReminders(db: D1Database, token: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE reminders SET
         status = CASE WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.dedupe_key = 'reminder:' || reminders.id)
           THEN 'sent' ELSE 'skipped' END,
         outcome = CASE
           WHEN EXISTS (SELECT 1 FROM outbox o WHERE o.dedupe_key = 'reminder:' || reminders.id) THEN 'queued'
           WHEN send_until <= ?2 THEN 'too late'
           WHEN NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = reminders.booking_id AND b.status = 'active'
             AND ${liveBooking('b', '?2')} AND b.version = reminders.booking_version
             AND b.appointment_date = reminders.appointment_date AND b.start_minute = reminders.start_minute)
             THEN 'booking cancelled or moved'
           WHEN kind = '2h' AND (SELECT second_reminder FROM message_settings WHERE id = 1) = 0 THEN 'second reminder off'
           ELSE 'patient turned reminders off' END,
         claim_token = NULL, claimed_until = NULL
       WHERE claim_token = ?1 AND status = 'claimed'`,
    )
    .bind(token, now.toISOString());
}

/** Whether a user has turned reminders off (null: no such user). */
export function remindersOptOut(db: D1Database, userId: string): Promise<number | null> {
  return db
    .prepare('SELECT reminders_opt_out FROM users WHERE id = ?1')
    .bind(userId)
    .first<number>('reminders_opt_out');
}

export function setRemindersOptOut(db: D1Database, userId: string, optOut: boolean): D1PreparedStatement {
  return db.prepare('UPDATE users SET reminders_opt_out = ?2 WHERE id = ?1').bind(userId, optOut ? 1 : 0);
}
