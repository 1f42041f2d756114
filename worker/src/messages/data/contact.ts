import type { ContactMessage } from '../../../../contract/contact.ts';

/** A stored contact message; `mailed_at` is set once the clinic's inbox has it. */
export interface StoredMessage extends ContactMessage {
  id: string;
  mailed_at: string | null;
}

const MESSAGE_COLUMNS = 'id, user_name, user_email, subject, message, mailed_at';

/** Stores a message under its Idempotency-Key, unless one is stored under that key; RETURNING it when stored now. */
export function insertContactMessage(
  db: D1Database,
  id: string,
  key: string,
  message: ContactMessage,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO contact_messages (id, idempotency_key, user_name, user_email, subject, message)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING ${MESSAGE_COLUMNS}`,
    )
    .bind(id, key, message.user_name, message.user_email, message.subject, message.message);
}

export function contactMessageByKey(db: D1Database, key: string): Promise<StoredMessage | null> {
  return db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM contact_messages WHERE idempotency_key = ?1`)
    .bind(key)
    .first<StoredMessage>();
}

/**
 * Claims the mailing of an unmailed message (compare-and-set): only one request wins; a claim older
 * than `timeout` (an SQLite modifier such as '-2 minutes') belongs to a request that died and is
 * taken over. RETURNING the id when this claim won.
 */
export function claimMailing(db: D1Database, id: string, timeout: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE contact_messages SET mail_claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND mailed_at IS NULL
         AND (mail_claimed_at IS NULL OR mail_claimed_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?2))
       RETURNING id`,
    )
    .bind(id, timeout);
}

/** Gives up a claim (the mail failed), so a retry can mail the message. */
export function releaseMailingClaim(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('UPDATE contact_messages SET mail_claimed_at = NULL WHERE id = ?1').bind(id);
}

export function markMailed(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE contact_messages SET mailed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`)
    .bind(id);
}
