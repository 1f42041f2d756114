import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase, seedAs } from './helpers.ts';

const D = '2027-03-02';

// The database as it was before 0011 (the seed's clinic, bookings holding their doctors' and chairs'
// claims, a chain of reschedules, queued mail and reminders), then the migration.
beforeAll(async () => {
  await emptyDatabase();
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => m.name < '0011'),
  );
  await seedAs({ recall: false });
  const booking = (
    id: string,
    treatment: string,
    start: number,
    doctor: string,
    chair: string,
    created: string,
    status = 'active',
  ) =>
    env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes,
         doctor_id, chair_id, user_id, patient_name, email, price_cents, created_at, status)
       VALUES (?1, ?2, ?2, ?3, 'slot', ?4, 30, ?5, ?6, 'twice', 'P', 'p@example.com', 8000, ?7, ?8)`,
    ).bind(id, treatment, D, start, doctor, chair, created, status);
  const claims = (id: string, start: number, doctor: string, chair: string) =>
    env.DB.prepare(
      `INSERT INTO claims (day, resource, cell, booking_id)
       SELECT ?1, r.value, c.value, ?2 FROM json_each(?3) r, json_each(?4) c`,
    ).bind(D, id, JSON.stringify([`doctor:${doctor}`, `chair:${chair}`]), JSON.stringify([start / 15, start / 15 + 1]));
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, email, name) VALUES ('twice', 'twice@example.com', 'Twice')"),
    // One patient, two chairs, overlapping at 09:15 (possible before patients claimed their time).
    booking('older', 'teeth-cleaning', 540, 'dr-sofia-alvarez', 'chair-1', '2027-01-01T10:00:00.000Z'),
    booking('newer', 'dental-checkup', 555, 'dr-hiro-tanaka', 'chair-2', '2027-01-01T11:00:00.000Z'),
    claims('older', 540, 'dr-sofia-alvarez', 'chair-1'),
    claims('newer', 555, 'dr-hiro-tanaka', 'chair-2'),
    // Rescheduled twice: first -> second -> third.
    booking('third', 'fluoride-treatment', 780, 'dr-sofia-alvarez', 'chair-1', '2027-01-02T12:00:00.000Z'),
    booking('second', 'fluoride-treatment', 720, 'dr-sofia-alvarez', 'chair-1', '2027-01-02T11:00:00.000Z', 'moved'),
    booking('first', 'fluoride-treatment', 660, 'dr-sofia-alvarez', 'chair-1', '2027-01-02T10:00:00.000Z', 'moved'),
    env.DB.prepare("UPDATE bookings SET moved_to = 'second' WHERE id = 'first'"),
    env.DB.prepare("UPDATE bookings SET moved_to = 'third' WHERE id = 'second'"),
    claims('third', 780, 'dr-sofia-alvarez', 'chair-1'),
    env.DB.prepare(
      `INSERT INTO reminders (id, booking_id, kind, booking_version, appointment_date, start_minute, due_at, send_until)
       VALUES ('third:24h:1', 'third', '24h', 1, ?1, 780, '2027-03-01T18:00:00.000Z', '2027-03-02T06:00:00.000Z')`,
    ).bind(D),
    env.DB.prepare(
      `INSERT INTO outbox (id, dedupe_key, kind, recipient, booking_id, data, next_attempt_at, created_at)
       VALUES ('mail-1', 'confirmation:third', 'confirmation', 'p@example.com', 'third', '{}', '2027-01-02T12:00:00.000Z', '2027-01-02T12:00:00.000Z')`,
    ),
  ]);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

const claimsOf = async (id: string) =>
  (
    await env.DB.prepare("SELECT cell FROM claims WHERE booking_id = ?1 AND resource = 'patient:twice' ORDER BY cell")
      .bind(id)
      .all<{ cell: number }>()
  ).results.map((row) => row.cell);

describe('migration 0011 carries existing data over', () => {
  it('gives every booking with claims its patient’s claims; where one patient overlaps, the older keeps the cell and the newer is marked for review', async () => {
    expect(await claimsOf('older')).toEqual([36, 37]);
    expect(await claimsOf('newer')).toEqual([38]);
    const review = await env.DB.prepare(
      "SELECT id, needs_review FROM bookings WHERE id IN ('older', 'newer', 'third') ORDER BY id",
    ).all();
    expect(review.results).toEqual([
      { id: 'newer', needs_review: 1 },
      { id: 'older', needs_review: 0 },
      { id: 'third', needs_review: 0 },
    ]);
  });

  it('gives a chain of reschedules one calendar UID, its versions rising, and keeps their reminders due', async () => {
    const { results } = await env.DB.prepare(
      "SELECT id, calendar_uid, version FROM bookings WHERE id IN ('first', 'second', 'third') ORDER BY id",
    ).all();
    expect(results).toEqual([
      { id: 'first', calendar_uid: null, version: 1 },
      { id: 'second', calendar_uid: 'first', version: 2 },
      { id: 'third', calendar_uid: 'first', version: 3 },
    ]);
    expect(await env.DB.prepare("SELECT booking_version FROM reminders WHERE booking_id = 'third'").first()).toEqual({
      booking_version: 3,
    });
  });

  it('keeps every queued mail, now on the mail channel', async () => {
    expect(await env.DB.prepare("SELECT kind, channel, status FROM outbox WHERE id = 'mail-1'").first()).toEqual({
      kind: 'confirmation',
      channel: 'mail',
      status: 'pending',
    });
  });
});
