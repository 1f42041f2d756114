import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { erasePatient } from '../../src/booking/data/writes.ts';
import {
  bindUser,
  insertUser,
  makeUserAdmin,
  type NewUserRow,
  revokeAccessTokens,
  USER_EMAIL,
  USER_FIREBASE_UID,
  type UserRow,
  updateUserProfile,
  userByEmail,
  userById,
  userFromRow,
  usersByUidOrEmail,
  usersPage,
} from '../../src/people/data/users.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { addUser } from '../helpers.ts';

const db = env.DB;
let n = 0;
function newUser(fields: Partial<NewUserRow> = {}): NewUserRow {
  n += 1;
  return {
    id: `user-${n}`,
    email: `person${n}@example.com`,
    name: `Person ${n}`,
    role: 'patient',
    photoUrl: null,
    firebaseUid: `uid-${n}`,
    emailVerified: true,
    language: 'en',
    ...fields,
  };
}
async function inserted(fields: Partial<NewUserRow> = {}) {
  const user = newUser(fields);
  const row = await insertUser(db, user).first<UserRow>();
  if (!row) throw new Error('not inserted');
  return userFromRow(row);
}
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('users: statements against D1', () => {
  it('inserts a user and reads them back by id and by email (any case)', async () => {
    const user = await inserted({ email: 'ada@example.com', name: 'Ada' });
    expect(user).toEqual({
      id: user.id,
      email: 'ada@example.com',
      name: 'Ada',
      role: 'patient',
      emailVerified: true,
      tokenVersion: 0,
    });
    expect(await userById(db, user.id)).toEqual(user);
    expect(await userByEmail(db, 'ADA@example.com')).toEqual(user);
    expect(await userById(db, 'nobody')).toBeNull();
  });

  it('inserts nothing when the email or the uid is taken (no row returned)', async () => {
    const first = await inserted({ firebaseUid: 'uid-taken' });
    expect(await insertUser(db, newUser({ email: first.email.toUpperCase() })).first()).toBeNull();
    expect(await insertUser(db, newUser({ firebaseUid: 'uid-taken' })).first()).toBeNull();
    expect((await usersPage(db, '', 1000, 0)).users.filter((user) => user.email === first.email)).toHaveLength(1);
  });

  it('finds the users of a uid or an email, with the uid each is bound to', async () => {
    const bound = await inserted({ firebaseUid: 'uid-bound' });
    const unbound = await addUser('unbound@example.com', 'Una', 'patient', { uid: null });
    const found = await usersByUidOrEmail(db, 'uid-bound', 'UNBOUND@example.com');
    expect(found.map((user) => [user.id, user.firebaseUid]).sort()).toEqual(
      [
        [bound.id, 'uid-bound'],
        [unbound, null],
      ].sort(),
    );
  });

  it('binds a user to a uid only while unbound or bound to that uid', async () => {
    const unbound = await addUser('to-bind@example.com', 'Tobi', 'patient', { uid: null, verified: false });
    const bind = (uid: string, promote = false) =>
      bindUser(db, { id: unbound, uid, email: 'to-bind@example.com', emailVerified: true, promote }).first<UserRow>();
    expect(await bind('uid-first')).toMatchObject({ id: unbound, email_verified: 1 });
    expect(await bind('uid-second')).toBeNull();
    const promoted = await bind('uid-first', true);
    expect(promoted && userFromRow(promoted)).toMatchObject({ role: 'admin', tokenVersion: 1 });
  });

  it('refuses to bind an email another user holds, as a violation of USER_EMAIL only', async () => {
    const holder = await inserted();
    const mover = await inserted({ firebaseUid: 'uid-mover' });
    const error = await failureOf(
      bindUser(db, { id: mover.id, uid: 'uid-mover', email: holder.email, emailVerified: true, promote: false }).run(),
    );
    expect(violates(error, USER_EMAIL)).toBe(true);
    expect(violates(error, USER_FIREBASE_UID)).toBe(false);
  });

  it('updates the profile only when it changes, keeping the photo when none is given', async () => {
    const user = await inserted({ photoUrl: 'https://example.com/a.png' });
    expect((await updateUserProfile(db, user.id, user.name, null).run()).meta.changes).toBe(0);
    expect((await updateUserProfile(db, user.id, 'New Name', null).run()).meta.changes).toBe(1);
    const row = await db.prepare('SELECT name, photo_url FROM users WHERE id = ?1').bind(user.id).first();
    expect(row).toEqual({ name: 'New Name', photo_url: 'https://example.com/a.png' });
  });

  it('makes only a verified user admin, moving their token version; revoking moves it too', async () => {
    const unverified = await inserted({ emailVerified: false });
    expect((await makeUserAdmin(db, unverified.id).run()).meta.changes).toBe(0);
    const verified = await inserted();
    expect((await makeUserAdmin(db, verified.id).run()).meta.changes).toBe(1);
    expect((await makeUserAdmin(db, verified.id).run()).meta.changes).toBe(0);
    await revokeAccessTokens(db, verified.id).run();
    expect(await userById(db, verified.id)).toMatchObject({ role: 'admin', tokenVersion: 2 });
  });

  it('lists users by name a page at a time, finds them by name or email, and leaves an erased one out', async () => {
    const { users: list, total } = await usersPage(db, '', 1000, 0);
    expect(list.length).toBeGreaterThan(3);
    expect(total).toBe(list.length);
    const byName = await db.prepare('SELECT id FROM users ORDER BY name COLLATE NOCASE, email').all<{ id: string }>();
    expect(list.map((user) => user.id)).toEqual(byName.results.map((row) => row.id));
    const second = await usersPage(db, '', 2, 2);
    expect([second.users.map((user) => user.id), second.total]).toEqual([list.slice(2, 4).map((u) => u.id), total]);
    const someone = list[1]!;
    expect((await usersPage(db, someone.email.toUpperCase(), 10, 0)).users.map((u) => u.id)).toEqual([someone.id]);
    // LIKE's wildcards are taken literally.
    expect((await usersPage(db, '%', 10, 0)).total).toBe(0);
    const last = list.at(-1)!;
    await db.batch(erasePatient(db, last.id, new Date()));
    expect(await userById(db, last.id)).toBeNull();
    expect(await userByEmail(db, last.email)).toBeNull();
    expect((await usersPage(db, '', 1000, 0)).users.map((user) => user.id)).not.toContain(last.id);
  });
});
