/** The SQL of text messages: the log of every text in and out, and each patient's number and consent. */

/** A row of the SMS log (the body cut at 1,600 characters, ten segments). */
export const logSms = (
  db: D1Database,
  entry: { direction: 'out' | 'in'; phone: string; body: string; provider: string; id?: string; outcome?: string },
) =>
  db
    .prepare(
      'INSERT INTO sms_log (direction, phone, body, provider, provider_id, outcome) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
    )
    .bind(
      entry.direction,
      entry.phone,
      entry.body.slice(0, 1600),
      entry.provider,
      entry.id ?? null,
      entry.outcome ?? null,
    );

/** The account whose verified mobile number is `phone`, if any. */
export const smsUserByPhone = (db: D1Database, phone: string) =>
  db
    .prepare('SELECT id, email, sms_stopped, language FROM users WHERE sms_phone = ?1')
    .bind(phone)
    .first<{ id: string; email: string; sms_stopped: number; language: string }>();

/** STOP (true) or START (false); changes nothing when already so. */
export const setSmsStopped = (db: D1Database, userId: string, stop: boolean) =>
  db.prepare('UPDATE users SET sms_stopped = ?2 WHERE id = ?1 AND sms_stopped != ?2').bind(userId, stop ? 1 : 0);

export interface SmsSettingRow {
  sms_phone: string | null;
  sms_consent: number;
  sms_stopped: number;
}

export const smsSettingOf = (db: D1Database, userId: string) =>
  db.prepare('SELECT sms_phone, sms_consent, sms_stopped FROM users WHERE id = ?1').bind(userId).first<SmsSettingRow>();

/** Whether another account has `phone`. */
export const smsPhoneTaken = async (db: D1Database, phone: string, userId: string) =>
  (await db.prepare('SELECT 1 AS taken FROM users WHERE sms_phone = ?1 AND id != ?2').bind(phone, userId).first()) !==
  null;

/** Sets the number and consent; agreeing again clears a STOP. RETURNING the setting (null: no such user). */
export const saveSmsSetting = (db: D1Database, userId: string, phone: string | null, consent: boolean) =>
  db
    .prepare(
      `UPDATE users SET sms_phone = ?2, sms_consent = ?3, sms_stopped = CASE WHEN ?3 = 1 THEN 0 ELSE sms_stopped END
       WHERE id = ?1 RETURNING sms_phone, sms_consent, sms_stopped`,
    )
    .bind(userId, phone, consent ? 1 : 0)
    .first<SmsSettingRow>();
