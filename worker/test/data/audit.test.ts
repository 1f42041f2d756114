import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../contract/audit.ts';
import {
  type Actor,
  type AuditEntry,
  type AuditRow,
  auditEntry,
  auditPage,
  changedFields,
  IF_CHANGED,
  type Sql,
  toAuditEntry,
} from '../../src/platform/data/audit.ts';

const db = env.DB;
const admin: Actor = { id: 'admin-1', email: 'admin@clinic.test', role: 'admin' };
let n = 0;
const entry = (fields: Partial<AuditEntry> = {}): AuditEntry => {
  n += 1;
  return {
    actor: admin,
    action: 'user.made_admin',
    target: { type: 'user', id: `user-${n}`, name: `Person ${n}` },
    before: { role: 'patient' },
    after: { role: 'admin' },
    ...fields,
  };
};
const rowsOf = async (targetId: string) =>
  (
    await db.prepare('SELECT * FROM audit_log WHERE target_id = ?1 ORDER BY id').bind(targetId).all<AuditRow>()
  ).results.map(toAuditEntry);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
const scratch = db.prepare('CREATE TABLE IF NOT EXISTS scratch (id TEXT PRIMARY KEY, v INTEGER NOT NULL)');

describe('audit_log: statements against D1', () => {
  it('writes an entry with its actor, target and JSON before and after, stamped in UTC', async () => {
    const written = entry();
    const started = new Date().toISOString().slice(0, 19);
    await auditEntry(db, written).run();
    const [row] = await rowsOf(written.target.id);
    expect(row).toEqual({
      _id: expect.stringMatching(/^\d+$/),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      actor: { id: 'admin-1', email: 'admin@clinic.test', label: 'admin' },
      action: 'user.made_admin',
      target: { type: 'user', id: written.target.id, name: written.target.name },
      before: { role: 'patient' },
      after: { role: 'admin' },
    });
    expect((row?.at ?? '').slice(0, 19) >= started).toBe(true);
  });

  it('writes the system as an actor without id or email, under its label', async () => {
    const written = entry({ actor: { system: 'stripe' }, action: 'payment.failed', before: null, after: { x: 1 } });
    await auditEntry(db, written).run();
    expect((await rowsOf(written.target.id))[0]?.actor).toEqual({ id: null, email: null, label: 'stripe' });
  });

  it('keeps only the fields that changed; an addition keeps its after, a deletion its before', () => {
    expect(
      changedFields({ name: 'A', price: 10, active: true }, { name: 'A', price: 12, active: true, extra: undefined }),
    ).toEqual({ before: { price: 10 }, after: { price: 12 } });
    expect(changedFields({ role: 'patient' }, { role: 'admin', since: 'now' })).toEqual({
      before: { role: 'patient' },
      after: { role: 'admin', since: 'now' },
    });
    expect(changedFields(null, { name: 'Dr. A', gone: undefined })).toEqual({ before: null, after: { name: 'Dr. A' } });
    expect(changedFields({ name: 'Dr. A' }, null)).toEqual({ before: { name: 'Dr. A' }, after: null });
  });

  it('reads values the entry names as SQL inside its batch, at its place there', async () => {
    await scratch.run();
    const id = crypto.randomUUID();
    const written = entry({
      target: { type: 'booking', id, name: (p) => `(SELECT 'row ' || v FROM scratch WHERE id = ${p(id)})` },
      before: { v: 1, same: 'x' },
      after: {
        v: ((p) => `(SELECT v FROM scratch WHERE id = ${p(id)})`) satisfies Sql,
        same: 'x',
        text: 'it\'s "quoted"',
      },
    });
    await db.batch([
      db.prepare('INSERT INTO scratch (id, v) VALUES (?1, 1)').bind(id),
      db.prepare('UPDATE scratch SET v = 7 WHERE id = ?1').bind(id),
      auditEntry(db, written),
    ]);
    const [row] = await rowsOf(id);
    expect(row?.target.name).toBe('row 7');
    expect(row?.before).toEqual({ v: 1 });
    expect(row?.after).toEqual({ v: 7, text: 'it\'s "quoted"' });
  });

  it('IF_CHANGED: a row only when the statement right before it in the batch changed one', async () => {
    await scratch.run();
    const id = crypto.randomUUID();
    const update = (v: number) => db.prepare('UPDATE scratch SET v = ?2 WHERE id = ?1 AND v != ?2').bind(id, v);
    const changed = entry({ target: { type: 'booking', id, name: null } });
    // Nothing to update yet; then an insert and an update that changes; then one that changes nothing.
    await db.batch([update(1), auditEntry(db, { ...changed, after: { v: 'none' } }, IF_CHANGED)]);
    await db.batch([
      db.prepare('INSERT INTO scratch (id, v) VALUES (?1, 0)').bind(id),
      update(2),
      auditEntry(db, { ...changed, after: { v: 2 } }, IF_CHANGED),
      update(2),
      auditEntry(db, { ...changed, after: { v: 'again' } }, IF_CHANGED),
    ]);
    // An audit row right after another audit row counts that one, so each goes right after its change.
    await db.batch([update(3), auditEntry(db, { ...changed, after: { v: 3 } }, IF_CHANGED)]);
    expect((await rowsOf(id)).map((row) => row.after)).toEqual([{ v: 2 }, { v: 3 }]);
  });

  it('a failed batch leaves no audit row', async () => {
    await scratch.run();
    const id = crypto.randomUUID();
    await db.prepare('INSERT INTO scratch (id, v) VALUES (?1, 0)').bind(id).run();
    const written = entry({ target: { type: 'booking', id, name: null } });
    const error = await failureOf(
      db.batch([auditEntry(db, written), db.prepare('INSERT INTO scratch (id, v) VALUES (?1, 1)').bind(id)]),
    );
    expect(error).toMatch(/UNIQUE constraint failed: scratch.id/);
    expect(await rowsOf(id)).toEqual([]);
  });

  it('refuses an action or a target type of another shape, an actor outside the fixed labels, and fields that are not JSON objects', async () => {
    const insert = (action: string, targetType: string, label: string, actorId: string | null, before: string | null) =>
      failureOf(
        db
          .prepare(
            `INSERT INTO audit_log (actor_id, actor_email, actor_label, action, target_type, target_id, before)
             VALUES (?1, ?2, ?3, ?4, ?5, 'x', ?6)`,
          )
          .bind(actorId, actorId && 'a@clinic.test', label, action, targetType, before)
          .run(),
      );
    expect(await insert('user.made_admin', 'user', 'admin', 'a', '{"role":"patient"}')).toBeNull();
    expect(await insert('user.renamed', 'user', 'admin', 'a', null)).toBeNull();
    for (const action of ['renamed', 'User.Renamed', 'user.', 'user.re-named', "user.x'"]) {
      expect(await insert(action, 'user', 'admin', 'a', null)).toMatch(/CHECK constraint failed/);
    }
    for (const type of ['', 'Planet', 'a.b', 'user ']) {
      expect(await insert('user.made_admin', type, 'admin', 'a', null)).toMatch(/CHECK constraint failed/);
    }
    expect(await insert('user.made_admin', 'user', 'stripe', 'a', null)).toMatch(/CHECK constraint failed/);
    expect(await insert('user.made_admin', 'user', 'admin', null, null)).toMatch(/CHECK constraint failed/);
    expect(await insert('user.made_admin', 'user', 'system', null, '[1]')).toMatch(/CHECK constraint failed/);
    expect(await insert('user.made_admin', 'user', 'system', null, 'not json')).toMatch(/CHECK constraint failed/);
  });

  it('allows every action and target type of the contract', async () => {
    for (const action of AUDIT_ACTIONS) {
      for (const type of AUDIT_TARGET_TYPES) {
        await auditEntry(db, entry({ action, target: { type, id: `${action}-${type}`, name: null } })).run();
      }
    }
    const { results } = await db
      .prepare('SELECT DISTINCT action FROM audit_log WHERE target_id GLOB ?1')
      .bind('*.*-*')
      .all<{ action: string }>();
    expect(results.map((row) => row.action).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('is append-only: UPDATE, DELETE and REPLACE abort with the trigger’s message', async () => {
    const written = entry();
    await auditEntry(db, written).run();
    const [row] = await rowsOf(written.target.id);
    const id = Number(row?._id);
    expect(
      await failureOf(db.prepare("UPDATE audit_log SET target_name = 'forged' WHERE id = ?1").bind(id).run()),
    ).toMatch(/audit_log is append-only: its rows cannot be changed/);
    expect(await failureOf(db.prepare('DELETE FROM audit_log WHERE id = ?1').bind(id).run())).toMatch(
      /audit_log is append-only: its rows cannot be deleted/,
    );
    expect(await failureOf(db.prepare('DELETE FROM audit_log').run())).toMatch(/cannot be deleted/);
    expect(
      await failureOf(
        db
          .prepare(
            `INSERT OR REPLACE INTO audit_log (id, actor_label, action, target_type, target_id) VALUES (?1, 'system', 'user.deleted', 'user', 'forged')`,
          )
          .bind(id)
          .run(),
      ),
    ).toMatch(/audit_log is append-only: its rows cannot be replaced/);
    expect(
      await failureOf(
        db
          .prepare(
            `INSERT INTO audit_log (id, actor_label, action, target_type, target_id) VALUES (?1, 'system', 'user.deleted', 'user', 'forged')
             ON CONFLICT (id) DO UPDATE SET target_id = excluded.target_id`,
          )
          .bind(id)
          .run(),
      ),
    ).toMatch(/audit_log is append-only/);
    expect(await rowsOf(written.target.id)).toEqual([row]);
  });
});

describe('audit_log: pages', () => {
  it('pages newest first by (at, id), filtered by action and by actor id, email or system label', async () => {
    const patient: Actor = { id: 'patient-9', email: 'pat@clinic.test', role: 'patient' };
    const mine = await Promise.all(
      [
        entry({ actor: patient, action: 'booking.cancelled' }),
        entry({ actor: { system: 'stripe' }, action: 'payment.succeeded' }),
        entry({ actor: patient, action: 'payment.succeeded' }),
      ].map(async (e) => {
        await auditEntry(db, e).run();
        return e.target.id;
      }),
    );
    const newest = await auditPage(db, { filter: {}, limit: 500 });
    const ids = newest.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const ofPatient = (await auditPage(db, { filter: { actor: 'patient-9' }, limit: 10 })).map((r) => r.target_id);
    expect(ofPatient.sort()).toEqual([mine[0], mine[2]].sort());
    expect((await auditPage(db, { filter: { actor: 'PAT@clinic.test' }, limit: 10 })).length).toBe(2);
    const stripe = await auditPage(db, { filter: { actor: 'stripe', action: 'payment.succeeded' }, limit: 10 });
    expect(stripe.map((r) => r.target_id)).toEqual([mine[1]]);
    const first = newest[0];
    if (!first) throw new Error('no rows');
    const older = await auditPage(db, { after: { at: first.at, id: first.id }, filter: {}, limit: 1 });
    expect(older.map((r) => r.id)).toEqual([newest[1]?.id]);
  });
});
