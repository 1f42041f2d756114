import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from './helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
let migratedAt: number;
type HoldRow = { id: string; hold_until: string | null; status: string };
/** The bookings as 0003 left them (later migrations change holds for their own reasons: 0020 clears a reviewed one's). */
let afterThisMigration: HoldRow[];

// The database as it was before 0003, with data of the old shape, then the migration.
beforeAll(async () => {
  await emptyDatabase();
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => m.name < '0003'),
  );

  const booking = (id: string, date: string, user: string, price: number, paid: number) =>
    env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, price_cents, paid)
       VALUES (?1, 't', 'Treatment', ?2, '09.00 AM - 09.30 AM', ?3, 'P', ?3 || '@example.com', ?4, ?5)`,
    ).bind(id, date, user, price, paid);
  const review = (id: string, user: string | null, created: string) =>
    env.DB.prepare(
      "INSERT INTO reviews (id, user_id, name, review, location, created_at) VALUES (?1, ?2, 'N', ?1, 'L', ?3)",
    ).bind(id, user, created);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, email, name) VALUES ('a', 'a@example.com', 'A'), ('b', 'b@example.com', 'B')",
    ),
    env.DB.prepare("INSERT INTO treatments (id, name, price_cents) VALUES ('t', 'Treatment', 5000)"),
    env.DB.prepare(
      "INSERT INTO treatment_slots (treatment_id, slot, start_minute) VALUES ('t', '09.00 AM - 09.30 AM', 540)",
    ),
    booking('unpaid-upcoming', day(5), 'a', 5000, 0),
    booking('paid-upcoming', day(6), 'a', 5000, 1),
    booking('unpaid-past', day(-5), 'a', 5000, 0),
    booking('free-upcoming', day(7), 'b', 0, 0),
    review('seed-1', null, '2026-01-01T12:00:00.000Z'),
    review('seed-2', null, '2026-01-02T12:00:00.000Z'),
    review('a-old', 'a', '2026-02-01T12:00:00.000Z'),
    review('a-newest', 'a', '2026-02-03T12:00:00.000Z'),
    review('a-middle', 'a', '2026-02-02T12:00:00.000Z'),
    review('b-only', 'b', '2026-02-01T12:00:00.000Z'),
  ]);
  migratedAt = Date.now();
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => m.name < '0004'),
  );
  afterThisMigration = (await env.DB.prepare('SELECT id, hold_until, status FROM bookings ORDER BY id').all<HoldRow>())
    .results;
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('migration 0003 carries existing data over', () => {
  it('gives existing unpaid upcoming bookings of priced treatments 24 hours to be paid, and nothing else a hold', async () => {
    const results = afterThisMigration;
    expect(results.map((r) => [r.id, r.hold_until === null, r.status])).toEqual([
      ['free-upcoming', true, 'active'],
      ['paid-upcoming', true, 'active'],
      ['unpaid-past', true, 'active'],
      ['unpaid-upcoming', false, 'active'],
    ]);
    const hold = Date.parse(results.find((r) => r.id === 'unpaid-upcoming')!.hold_until!);
    expect(hold).toBeGreaterThanOrEqual(migratedAt + 24 * 3600_000 - 1000);
    expect(hold).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
  });

  it('keeps the clinic’s reviews published and each patient’s newest review, waiting for approval', async () => {
    const { results } = await env.DB.prepare(
      'SELECT id, user_id, status, version, updated_at = created_at AS same FROM reviews ORDER BY id',
    ).all();
    expect(results).toEqual([
      { id: 'a-newest', user_id: 'a', status: 'pending', version: 1, same: 1 },
      { id: 'b-only', user_id: 'b', status: 'pending', version: 1, same: 1 },
      { id: 'seed-1', user_id: null, status: 'approved', version: 1, same: 1 },
      { id: 'seed-2', user_id: null, status: 'approved', version: 1, same: 1 },
    ]);
  });

  it('leaves a constraint of one review per patient', async () => {
    const second = env.DB.prepare(
      "INSERT INTO reviews (id, user_id, name, review, location) VALUES ('a-again', 'a', 'N', 'R', 'L')",
    ).run();
    await expect(second).rejects.toThrow(/UNIQUE/);
    const bad = env.DB.prepare("UPDATE reviews SET status = 'published' WHERE id = 'b-only'").run();
    await expect(bad).rejects.toThrow(/CHECK/);
  });
});
