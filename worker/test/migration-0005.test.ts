import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, call, emptyDatabase } from './helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
const D = day(5);

// The database as it was before 0005, with data of the old shape, then the migration.
beforeAll(async () => {
  await emptyDatabase();
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => m.name < '0005'),
  );

  const slot = (treatment: string, label: string, minute: number) =>
    env.DB.prepare('INSERT INTO treatment_slots (treatment_id, slot, start_minute) VALUES (?1, ?2, ?3)').bind(
      treatment,
      label,
      minute,
    );
  const doctor = (id: string, specialty: string) =>
    env.DB.prepare(
      "INSERT INTO doctors (id, name, email, specialty, image_key, created_at) VALUES (?1, ?1, ?1 || '@clinic.test', ?2, ?1 || '.png', ?3)",
    ).bind(id, specialty, `2026-01-01T00:00:0${id.length % 10}.000Z`);
  const booking = (
    id: string,
    treatment: string,
    date: string,
    label: string,
    user: string,
    created: string,
    fields: { status?: string; paid?: number } = {},
  ) =>
    env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, price_cents, paid, status, created_at)
       VALUES (?1, ?2, ?2, ?3, ?4, ?5, 'P', ?5 || '@example.com', 5000, ?6, ?7, ?8)`,
    ).bind(id, treatment, date, label, user, fields.paid ?? 0, fields.status ?? 'active', created);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, email, name) VALUES ('a', 'a@example.com', 'A'), ('b', 'b@example.com', 'B'), ('c', 'c@example.com', 'C')",
    ),
    env.DB.prepare(
      `INSERT INTO treatments (id, name, price_cents, position) VALUES ('teeth-cleaning', 'Teeth Cleaning', 8000, 0),
         ('cavity-filling', 'Cavity Filling', 15000, 1), ('teeth-whitening', 'Teeth Whitening', 25000, 2),
         ('root-canal', 'Root Canal Treatment', 70000, 3), ('custom', 'Custom Care', 1000, 4)`,
    ),
    slot('teeth-cleaning', '09.00 AM - 09.30 AM', 540),
    slot('cavity-filling', '09.00 AM - 09.30 AM', 540),
    slot('teeth-whitening', '09.00 AM - 09.30 AM', 540),
    slot('root-canal', '09.30 AM - 10.00 AM', 570),
    slot('custom', '10.00 AM - 10.30 AM', 600),
    doctor('dr-white', 'Teeth Whitening'),
    doctor('dr-root', 'Root Canal Treatment'),
    doctor('dr-fill', 'Cavity Filling'),
    doctor('dr-ortho', 'Orthodontics'),
    doctor('dr-stars', 'Astrology'),
    // Three bookings at 09.00 on D under the old rules (one per treatment's slot): two general
    // dentists, but only two chairs for three.
    booking('cleaning-9', 'teeth-cleaning', D, '09.00 AM - 09.30 AM', 'a', '2026-02-01T10:00:00.000Z'),
    booking('filling-9', 'cavity-filling', D, '09.00 AM - 09.30 AM', 'b', '2026-02-01T11:00:00.000Z'),
    booking('whitening-9', 'teeth-whitening', D, '09.00 AM - 09.30 AM', 'c', '2026-02-01T12:00:00.000Z'),
    booking('root-930', 'root-canal', D, '09.30 AM - 10.00 AM', 'a', '2026-02-01T13:00:00.000Z'),
    booking('cancelled-9', 'teeth-cleaning', D, '09.00 AM - 09.30 AM', 'c', '2026-02-01T14:00:00.000Z', {
      status: 'cancelled',
    }),
    booking('custom-10', 'custom', day(6), '10.00 AM - 10.30 AM', 'b', '2026-02-01T15:00:00.000Z', { paid: 1 }),
    env.DB.prepare(
      `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider) VALUES
         ('pay-1', 'pi_1', 'custom-10', 'b@example.com', 1000, 'demo'), ('pay-2', 'pi_2', 'cancelled-9', 'c@example.com', 8000, 'demo')`,
    ),
  ]);
  await env.DB.prepare(
    "UPDATE payments SET refund_status = 'due', refund_reason = 'booking_not_active' WHERE id = 'pay-2'",
  ).run();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('migration 0005 carries existing data over', () => {
  it('gives each treatment its specialty and length (the seed’s known ones, else General Dentistry, 30 minutes), offered', async () => {
    const { results } = await env.DB.prepare(
      'SELECT id, duration_minutes, specialty_id, active, position FROM treatments ORDER BY position',
    ).all();
    expect(results).toEqual([
      { id: 'teeth-cleaning', duration_minutes: 30, specialty_id: 'general-dentistry', active: 1, position: 0 },
      { id: 'cavity-filling', duration_minutes: 60, specialty_id: 'general-dentistry', active: 1, position: 1 },
      { id: 'teeth-whitening', duration_minutes: 60, specialty_id: 'cosmetic-dentistry', active: 1, position: 2 },
      { id: 'root-canal', duration_minutes: 90, specialty_id: 'endodontics', active: 1, position: 3 },
      { id: 'custom', duration_minutes: 30, specialty_id: 'general-dentistry', active: 1, position: 4 },
    ]);
  });

  it('maps each doctor’s old specialty (a treatment’s name) to that treatment’s specialty; every day, 09:00 to 17:00', async () => {
    const { results } = await env.DB.prepare(
      'SELECT id, specialty_id, working_days, start_minute, end_minute, image_key FROM doctors ORDER BY id',
    ).all();
    expect(results).toEqual([
      {
        id: 'dr-fill',
        specialty_id: 'general-dentistry',
        working_days: 127,
        start_minute: 540,
        end_minute: 1020,
        image_key: 'dr-fill.png',
      },
      {
        id: 'dr-ortho',
        specialty_id: 'orthodontics',
        working_days: 127,
        start_minute: 540,
        end_minute: 1020,
        image_key: 'dr-ortho.png',
      },
      {
        id: 'dr-root',
        specialty_id: 'endodontics',
        working_days: 127,
        start_minute: 540,
        end_minute: 1020,
        image_key: 'dr-root.png',
      },
      {
        id: 'dr-stars',
        specialty_id: 'general-dentistry',
        working_days: 127,
        start_minute: 540,
        end_minute: 1020,
        image_key: 'dr-stars.png',
      },
      {
        id: 'dr-white',
        specialty_id: 'cosmetic-dentistry',
        working_days: 127,
        start_minute: 540,
        end_minute: 1020,
        image_key: 'dr-white.png',
      },
    ]);
  });

  it('opens the clinic every day 09:00-17:00 with two chairs', async () => {
    expect(
      (await env.DB.prepare('SELECT weekday, open_minute, close_minute FROM clinic_hours ORDER BY weekday').all())
        .results,
    ).toEqual([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, open_minute: 540, close_minute: 1020 })));
    expect((await env.DB.prepare('SELECT id, name FROM chairs ORDER BY position').all()).results).toEqual([
      { id: 'chair-1', name: 'Chair 1' },
      { id: 'chair-2', name: 'Chair 2' },
    ]);
  });

  it('keeps every booking, its half hour, and gives the active ones a doctor of their specialty and a chair, oldest first', async () => {
    const { results } = await env.DB.prepare(
      'SELECT id, status, start_minute, duration_minutes, doctor_id, chair_id, needs_review, paid FROM bookings ORDER BY created_at',
    ).all();
    expect(results).toEqual([
      {
        id: 'cleaning-9',
        status: 'active',
        start_minute: 540,
        duration_minutes: 30,
        doctor_id: 'dr-fill',
        chair_id: 'chair-1',
        needs_review: 0,
        paid: 0,
      },
      {
        id: 'filling-9',
        status: 'active',
        start_minute: 540,
        duration_minutes: 30,
        doctor_id: 'dr-stars',
        chair_id: 'chair-2',
        needs_review: 0,
        paid: 0,
      },
      // The third at 09.00 has a doctor of its own but no chair left: kept, for the front desk.
      {
        id: 'whitening-9',
        status: 'active',
        start_minute: 540,
        duration_minutes: 30,
        doctor_id: 'dr-white',
        chair_id: 'chair-1',
        needs_review: 1,
        paid: 0,
      },
      {
        id: 'root-930',
        status: 'active',
        start_minute: 570,
        duration_minutes: 30,
        doctor_id: 'dr-root',
        chair_id: 'chair-1',
        needs_review: 0,
        paid: 0,
      },
      {
        id: 'cancelled-9',
        status: 'cancelled',
        start_minute: 540,
        duration_minutes: 30,
        doctor_id: null,
        chair_id: null,
        needs_review: 0,
        paid: 0,
      },
      {
        id: 'custom-10',
        status: 'active',
        start_minute: 600,
        duration_minutes: 30,
        doctor_id: 'dr-fill',
        chair_id: 'chair-1',
        needs_review: 0,
        paid: 1,
      },
    ]);
  });

  it('backfills their claims; where they overlap, the older booking keeps the cell', async () => {
    // The doctors' and chairs' claims (migration 0011 adds the patients', tested on its own).
    const { results } = await env.DB.prepare(
      "SELECT booking_id, resource, cell FROM claims WHERE resource NOT GLOB 'patient:*' ORDER BY booking_id, resource, cell",
    ).all();
    const of = (id: string) => results.filter((c) => c.booking_id === id).map((c) => `${c.resource}#${c.cell}`);
    expect(of('cleaning-9')).toEqual([
      'chair:chair-1#36',
      'chair:chair-1#37',
      'doctor:dr-fill#36',
      'doctor:dr-fill#37',
    ]);
    expect(of('filling-9')).toEqual([
      'chair:chair-2#36',
      'chair:chair-2#37',
      'doctor:dr-stars#36',
      'doctor:dr-stars#37',
    ]);
    expect(of('whitening-9')).toEqual(['doctor:dr-white#36', 'doctor:dr-white#37']);
    expect(of('root-930')).toEqual(['chair:chair-1#38', 'chair:chair-1#39', 'doctor:dr-root#38', 'doctor:dr-root#39']);
    expect(of('cancelled-9')).toEqual([]);
    expect(of('custom-10')).toEqual(['chair:chair-1#40', 'chair:chair-1#41', 'doctor:dr-fill#40', 'doctor:dr-fill#41']);
    expect(results).toHaveLength(18);
  });

  it('keeps every payment on its booking', async () => {
    const { results } = await env.DB.prepare('SELECT id, booking_id, refund_status FROM payments ORDER BY id').all();
    expect(results).toEqual([
      { id: 'pay-1', booking_id: 'custom-10', refund_status: null },
      { id: 'pay-2', booking_id: 'cancelled-9', refund_status: 'due' },
    ]);
    await expect(
      env.DB.prepare(
        "INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider) VALUES ('x', 'pi_x', 'custom-10', 'b@example.com', 1, 'demo')",
      ).run(),
    ).rejects.toThrow(/UNIQUE/);
  });

  it('leaves the rules in the schema: one booking per patient per treatment per date, one claim per cell, no treatment_slots', async () => {
    const again = env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id, patient_name, email, price_cents)
       VALUES ('again', 'teeth-cleaning', 'Teeth Cleaning', ?1, 'x', 600, 30, 'a', 'A', 'a@example.com', 8000)`,
    ).bind(D);
    await expect(again.run()).rejects.toThrow(
      /UNIQUE constraint failed: bookings.user_id, bookings.treatment_id, bookings.appointment_date/,
    );
    const claim = env.DB.prepare(
      "INSERT INTO claims (day, resource, cell, booking_id) VALUES (?1, 'chair:chair-2', 36, 'root-930')",
    ).bind(D);
    await expect(claim.run()).rejects.toThrow(/UNIQUE constraint failed: claims.day, claims.resource, claims.cell/);
    expect(
      await env.DB.prepare(
        "SELECT name FROM sqlite_master WHERE name IN ('treatment_slots', 'treatment_plan', 'booking_assignments', 'payments_kept')",
      ).all(),
    ).toMatchObject({ results: [] });
  });

  it('answers the carried-over bookings through the API with their doctor and length', async () => {
    const list = await (await call('/api/bookings', { headers: bearer(await accessTokenFor('a@example.com')) })).json<
      { _id: string }[]
    >();
    expect(list.map((b) => b)).toEqual([
      expect.objectContaining({
        _id: 'cleaning-9',
        slot: '09.00 AM - 09.30 AM',
        durationMinutes: 30,
        doctor: { _id: 'dr-fill', name: 'dr-fill', image: '/api/images/dr-fill.png' },
      }),
      expect.objectContaining({
        _id: 'root-930',
        slot: '09.30 AM - 10.00 AM',
        durationMinutes: 30,
        doctor: { _id: 'dr-root', name: 'dr-root', image: '/api/images/dr-root.png' },
      }),
    ]);
  });
});
