import type { Language } from '../../../../contract/languages.ts';
import type { User as UserAnswer } from '../../../../contract/users.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

/** A stored user, as the Worker reads them on every signed-in call. */
export interface User {
  id: string;
  email: string;
  name: string;
  role: 'patient' | 'admin';
  emailVerified: boolean;
  /** Carried in access tokens as `ver`; a token with another version is no longer valid. */
  tokenVersion: number;
}

/** The users columns a User is read from, and the row they give. */
const USER_COLUMNS = 'id, email, name, role, email_verified, token_version';
export type UserRow = Pick<User, 'id' | 'email' | 'name' | 'role'> & { email_verified: number; token_version: number };

export const userFromRow = ({ email_verified, token_version, ...row }: UserRow): User => ({
  ...row,
  emailVerified: email_verified === 1,
  tokenVersion: token_version,
});

/** A user as GET /api/users lists them. */
export const toUserAnswer = (user: User): UserAnswer => ({
  _id: user.id,
  name: user.name,
  // A patient the desk added without an email has none to show.
  email: isNoEmailAddress(user.email) ? '' : user.email,
  role: user.role,
});

/**
 * A patient the front desk added without an email gets an address in the reserved .invalid domain
 * (RFC 2606), which can never receive mail: the outbox drops mail to any .invalid address, and the
 * screens show none. (users.email is NOT NULL and unique.)
 */
export const noEmailAddress = (userId: string) => `no-email-${userId}@phone.invalid`;
/** Whether an address is one that can never receive mail (a patient without email, an erased one). */
export const isNoEmailAddress = (email: string) => /\.invalid$/i.test(email);

/** One account per email (compared without case). */
export const USER_EMAIL: UniqueConstraint = { table: 'users', columns: ['email'] };
/** One account per Firebase uid (index users_one_per_firebase_uid). */
export const USER_FIREBASE_UID: UniqueConstraint = { table: 'users', columns: ['firebase_uid'] };

export async function userById(db: D1Database, id: string): Promise<User | null> {
  const row = await db
    .prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?1 AND erased_at IS NULL`)
    .bind(id)
    .first<UserRow>();
  return row && userFromRow(row);
}

export async function userByEmail(db: D1Database, email: string): Promise<User | null> {
  const row = await db
    .prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?1 AND erased_at IS NULL`)
    .bind(email)
    .first<UserRow>();
  return row && userFromRow(row);
}

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally (ESCAPE '\\'). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the users (not erased) whose name or email contains `text` (all when empty), by name
 * then email, and how many match.
 */
export async function usersPage(
  db: D1Database,
  text: string,
  limit: number,
  offset: number,
): Promise<{ users: User[]; total: number }> {
  const where = `erased_at IS NULL AND (?1 = '' OR name LIKE ?2 ESCAPE '\\' OR email LIKE ?2 ESCAPE '\\')`;
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT ${USER_COLUMNS} FROM users WHERE ${where} ORDER BY name COLLATE NOCASE, email LIMIT ?3 OFFSET ?4`,
      )
      .bind(text, containing(text), limit, offset),
    db.prepare(`SELECT count(*) AS n FROM users WHERE ${where}`).bind(text, containing(text)),
  ]);
  return {
    users: ((rows?.results ?? []) as UserRow[]).map(userFromRow),
    total: ((count?.results ?? [])[0] as { n: number } | undefined)?.n ?? 0,
  };
}

/** The users bound to a Firebase uid or holding an email (two at most), with the uid each is bound to. */
export async function usersByUidOrEmail(
  db: D1Database,
  uid: string,
  email: string,
): Promise<(User & { firebaseUid: string | null })[]> {
  const { results } = await db
    .prepare(`SELECT ${USER_COLUMNS}, firebase_uid FROM users WHERE firebase_uid = ?1 OR email = ?2`)
    .bind(uid, email)
    .all<UserRow & { firebase_uid: string | null }>();
  return results.map(({ firebase_uid, ...row }) => ({ ...userFromRow(row), firebaseUid: firebase_uid }));
}

export interface NewUserRow {
  id: string;
  email: string;
  name: string;
  role: User['role'];
  photoUrl: string | null;
  firebaseUid: string;
  emailVerified: boolean;
  /** Of its mails, texts and calendar files: from the first sign-in's Accept-Language. */
  language: Language;
}

/** Inserts a user unless the email or uid is taken meanwhile; RETURNING the user's row (none when taken). */
export function insertUser(db: D1Database, user: NewUserRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO users (id, email, name, role, photo_url, firebase_uid, email_verified, language)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
    )
    .bind(
      user.id,
      user.email,
      user.name,
      user.role,
      user.photoUrl,
      user.firebaseUid,
      user.emailVerified ? 1 : 0,
      user.language,
    );
}

/** The language of user `id`'s mails, texts and calendar files (null: no such user). */
export async function userLanguage(db: D1Database, id: string): Promise<string | null> {
  return (
    (await db.prepare('SELECT language FROM users WHERE id = ?1').bind(id).first<{ language: string }>())?.language ??
    null
  );
}

/** Sets user `id`'s language; RETURNING it (none: no such user). */
export function setUserLanguage(db: D1Database, id: string, language: Language): D1PreparedStatement {
  return db.prepare('UPDATE users SET language = ?2 WHERE id = ?1 RETURNING language').bind(id, language);
}

/**
 * Binds user `id` to a Firebase uid (compare-and-set: only while unbound or bound to that uid),
 * with the account's current email and verified state; `promote` makes them admin and ends their
 * older access tokens. RETURNING the user's row (none when bound to another uid meanwhile).
 */
export function bindUser(
  db: D1Database,
  binding: { id: string; uid: string; email: string; emailVerified: boolean; promote: boolean },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET firebase_uid = ?2, email = ?3, email_verified = ?4,
         role = CASE WHEN ?5 THEN 'admin' ELSE role END,
         token_version = token_version + (CASE WHEN ?5 AND role != 'admin' THEN 1 ELSE 0 END)
       WHERE id = ?1 AND (firebase_uid IS NULL OR firebase_uid = ?2)
       RETURNING ${USER_COLUMNS}`,
    )
    .bind(binding.id, binding.uid, binding.email, binding.emailVerified ? 1 : 0, binding.promote ? 1 : 0);
}

/** Sets the name, and the photo when one is given; changes nothing when both are as stored. */
export function updateUserProfile(
  db: D1Database,
  id: string,
  name: string,
  photoUrl: string | null,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET name = ?1, photo_url = coalesce(?3, photo_url)
       WHERE id = ?2 AND (name != ?1 OR photo_url IS NOT coalesce(?3, photo_url))`,
    )
    .bind(name, id, photoUrl);
}

/** Ends every access token issued to the user so far. */
export function revokeAccessTokens(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?1').bind(id);
}

/** Makes a user with a verified email an admin, ending their older access tokens. */
export function makeUserAdmin(db: D1Database, id: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET role = 'admin', token_version = token_version + 1 WHERE id = ?1 AND role != 'admin' AND email_verified = 1`,
    )
    .bind(id);
}

export interface PatientMatchRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  no_shows: number;
  has_account: number;
  /** JSON: [{_id, name}] of their dependants. */
  family: string;
}

/**
 * Up to 20 users whose name or email contains `text` (without case; % and _ are literal), by name,
 * with their latest booking's phone and their no-shows.
 */
export async function searchUsers(db: D1Database, text: string): Promise<PatientMatchRow[]> {
  const pattern = containing(text);
  const { results } = await db
    .prepare(
      `SELECT u.id, u.name, u.email, (u.firebase_uid IS NOT NULL) AS has_account,
         (SELECT b.phone FROM bookings b WHERE b.user_id = u.id AND b.phone != ''
           ORDER BY b.created_at DESC LIMIT 1) AS phone,
         (SELECT count(*) FROM bookings n WHERE n.user_id = u.id AND n.status = 'no_show') AS no_shows,
         (SELECT json_group_array(json_object('_id', d.id, 'name', d.name)) FROM (
            SELECT id, name FROM users WHERE guardian_id = u.id AND erased_at IS NULL ORDER BY name COLLATE NOCASE) d) AS family
       FROM users u WHERE u.erased_at IS NULL AND (u.name LIKE ?1 ESCAPE '\\' OR u.email LIKE ?1 ESCAPE '\\')
       ORDER BY u.name COLLATE NOCASE, u.email LIMIT 20`,
    )
    .bind(pattern)
    .all<PatientMatchRow>();
  return results;
}

/**
 * A patient the front desk adds for a phone booking: no Firebase account yet and the email not
 * verified. Whoever signs up with that email and verifies it gets this record (and its bookings);
 * until then nobody can sign in to it. An email already taken fails it on USER_EMAIL.
 */
export function insertPhonePatient(
  db: D1Database,
  patient: { id: string; name: string; email: string; language: Language },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO users (id, email, name, role, email_verified, language) VALUES (?1, ?2, ?3, 'patient', 0, ?4)`,
    )
    .bind(patient.id, patient.email, patient.name, patient.language);
}

/**
 * The address a dependant (`id`, of account `guardianId`, still without a sign-in) is invited at,
 * set only when the invitation was queued by the statement before it in the batch.
 */
export function inviteAddress(db: D1Database, id: string, guardianId: string, email: string): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE users SET email = ?3 WHERE id = ?1 AND guardian_id = ?2 AND firebase_uid IS NULL AND changes() > 0',
    )
    .bind(id, guardianId, email);
}

/** Whom a booking is for, as the booking engine needs them. */
export type Patient = Pick<User, 'id' | 'name' | 'email'>;
