import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ClaimRow, liveClaimsOn } from '../../src/booking/data/claims.ts';
import { dropDeadClaims } from '../../src/booking/data/writes.ts';
import {
  allChairs,
  CHAIR_NAME,
  chairExists,
  insertChair,
  removeChair,
  scheduleChairs,
} from '../../src/clinic/data/chairs.ts';
import {
  clockOf,
  type HoursRow,
  hoursOnWeekday,
  minuteOf,
  replaceWeekHours,
  toOpeningHours,
  weekHours,
} from '../../src/clinic/data/clinic-hours.ts';
import { allClosures, closuresOn, insertClosure, removeClosure } from '../../src/clinic/data/closures.ts';
import { daysOf, doctorById, scheduleDoctors, team, updateDoctor } from '../../src/clinic/data/doctors.ts';
import { allSpecialties, specialtyIdByName } from '../../src/clinic/data/specialties.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

beforeAll(seed);

describe('specialties', () => {
  it('lists them in the clinic’s order and finds one by its name in any case', async () => {
    expect((await allSpecialties(db)).map((s) => s.name)).toEqual([
      'General Dentistry',
      'Endodontics',
      'Cosmetic Dentistry',
      'Orthodontics',
    ]);
    expect(await specialtyIdByName(db, 'cosmetic dentistry')).toBe('cosmetic-dentistry');
    expect(await specialtyIdByName(db, 'Astrology')).toBeNull();
  });
});

describe('chairs', () => {
  it('starts with the two chairs of migration 0005, adds one after them, and refuses a name taken (any case) as CHAIR_NAME', async () => {
    expect(await allChairs(db)).toEqual([
      { _id: 'chair-1', name: 'Chair 1' },
      { _id: 'chair-2', name: 'Chair 2' },
    ]);
    await insertChair(db, 'chair-x', 'Surgery').run();
    expect((await scheduleChairs(db).all<{ id: string }>()).results.map((c) => c.id)).toEqual([
      'chair-1',
      'chair-2',
      'chair-x',
    ]);
    expect(violates(await failureOf(insertChair(db, 'chair-y', 'SURGERY').run()), CHAIR_NAME)).toBe(true);
    expect(await chairExists(db, 'chair-x')).toBe(true);
    expect((await removeChair(db, 'chair-x').run()).meta.changes).toBe(1);
    expect(await chairExists(db, 'chair-x')).toBe(false);
  });
});

describe('clinic hours', () => {
  it('reads a weekday’s hours (none: closed) and replaces the week', async () => {
    expect(await hoursOnWeekday(db, 3).first<HoursRow>()).toEqual({ weekday: 3, open_minute: 540, close_minute: 1020 });
    await db.batch(
      replaceWeekHours(db, [
        [1, 480, 720],
        [2, 600, 1440],
      ]),
    );
    expect((await weekHours(db).all<HoursRow>()).results.map(toOpeningHours)).toEqual([
      { weekday: 1, open: '08:00', close: '12:00' },
      { weekday: 2, open: '10:00', close: '24:00' },
    ]);
    expect(await hoursOnWeekday(db, 3).first()).toBeNull();
    expect([clockOf(0), clockOf(545), minuteOf('09:05'), minuteOf('24:00')]).toEqual(['00:00', '09:05', 545, 1440]);
    // A closing time before the opening time breaks the table's CHECK: the week stays as it was.
    await expect(db.batch(replaceWeekHours(db, [[1, 600, 540]]))).rejects.toThrow(/CHECK/);
    expect((await weekHours(db).all()).results).toHaveLength(2);
    await db.batch(
      replaceWeekHours(
        db,
        [0, 1, 2, 3, 4, 5, 6].map((d) => [d, 540, 1020] as const),
      ),
    );
  });
});

describe('closures', () => {
  it('finds whose closures cover a date, lists them with the doctor’s name, and deletes one', async () => {
    await db.batch([
      insertClosure(db, { id: 'xmas', from: '2026-12-24', to: '2026-12-26', reason: 'Christmas', doctorId: null }),
      insertClosure(db, {
        id: 'leave',
        from: '2026-12-20',
        to: '2026-12-24',
        reason: 'Leave',
        doctorId: 'dr-hiro-tanaka',
      }),
    ]);
    const on = async (date: string) =>
      (await closuresOn(db, date).all<{ doctor_id: string | null }>()).results.map((c) => c.doctor_id).sort();
    expect(await on('2026-12-19')).toEqual([]);
    expect(await on('2026-12-20')).toEqual(['dr-hiro-tanaka']);
    expect(await on('2026-12-24')).toEqual(['dr-hiro-tanaka', null].sort());
    expect(await on('2026-12-26')).toEqual([null]);
    expect(await allClosures(db)).toEqual([
      {
        _id: 'leave',
        from: '2026-12-20',
        to: '2026-12-24',
        reason: 'Leave',
        doctorId: 'dr-hiro-tanaka',
        doctor: 'Dr. Hiro Tanaka',
        createdAt: expect.any(String),
      },
      {
        _id: 'xmas',
        from: '2026-12-24',
        to: '2026-12-26',
        reason: 'Christmas',
        doctorId: null,
        doctor: null,
        createdAt: expect.any(String),
      },
    ]);
    await expect(
      insertClosure(db, { id: 'bad', from: '2026-12-02', to: '2026-12-01', reason: 'x', doctorId: null }).run(),
    ).rejects.toThrow(/CHECK/);
    await expect(
      insertClosure(db, { id: 'bad', from: '2026-12-01', to: '2026-12-01', reason: 'x', doctorId: 'nobody' }).run(),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect((await removeClosure(db, 'leave').run()).meta.changes).toBe(1);
    expect((await removeClosure(db, 'leave').run()).meta.changes).toBe(0);
  });
});

describe('doctors’ schedules', () => {
  it('stores hours per weekday (working days as a bit mask, the earliest start and latest end beside them), and changes them', async () => {
    expect(daysOf(0b1000001)).toEqual([0, 6]);
    const sofia = {
      name: 'Dr. Sofia Alvarez',
      email: 'sofia.alvarez@clinic.test',
      specialtyId: 'general-dentistry',
      imageKey: 'doctors/seed-dr-sofia-alvarez.png',
    };
    await db.batch(
      updateDoctor(db, 'dr-sofia-alvarez', {
        ...sofia,
        weekly: [
          [1, 540, 780],
          [3, 720, 1080],
        ],
      }),
    );
    expect(await doctorById(db, 'dr-sofia-alvarez')).toMatchObject({
      specialty: 'General Dentistry',
      specialtyId: 'general-dentistry',
      workingDays: [1, 3],
      hours: { start: '09:00', end: '18:00' },
      weeklyHours: [
        { weekday: 1, start: '09:00', end: '13:00' },
        { weekday: 3, start: '12:00', end: '18:00' },
      ],
    });
    const wednesday = await scheduleDoctors(db, 3).all();
    expect(wednesday.results.find((d) => (d as { id: string }).id === 'dr-sofia-alvarez')).toEqual({
      id: 'dr-sofia-alvarez',
      specialty_id: 'general-dentistry',
      start_minute: 720,
      end_minute: 1080,
    });
    const tuesday = await scheduleDoctors(db, 2).all();
    expect(tuesday.results.map((d) => (d as { id: string }).id)).not.toContain('dr-sofia-alvarez');
    // The uniform columns, written as the seed and older tools write them, rewrite the hours per weekday.
    await db
      .prepare(
        "UPDATE doctors SET working_days = 127, start_minute = 540, end_minute = 1020 WHERE id = 'dr-sofia-alvarez'",
      )
      .run();
    expect((await doctorById(db, 'dr-sofia-alvarez'))?.weeklyHours).toHaveLength(7);
    await expect(db.batch(updateDoctor(db, 'dr-sofia-alvarez', { ...sofia, weekly: [[7, 480, 960]] }))).rejects.toThrow(
      /CHECK/,
    );
    await expect(db.batch(updateDoctor(db, 'dr-sofia-alvarez', { ...sofia, weekly: [[1, 960, 480]] }))).rejects.toThrow(
      /CHECK/,
    );
    expect(await doctorById(db, 'nobody')).toBeNull();
  });

  it('lists the team with name, specialty and photo only', async () => {
    expect((await team(db))[0]).toEqual({
      _id: 'dr-amelia-hart',
      name: 'Dr. Amelia Hart',
      specialty: 'Cosmetic Dentistry',
      specialtyId: 'cosmetic-dentistry',
      image: '/api/images/doctors/seed-dr-amelia-hart.png',
    });
  });
});

describe('claims', () => {
  it('reads the live claims of a day, and drops those of bookings no longer active and of expired holds', async () => {
    const userId = await addUser('claimer@example.com', 'Claimer');
    const booking = (id: string, treatment: string, status: string, paid: number, holdUntil: string | null) =>
      db
        .prepare(
          `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id, patient_name, email, price_cents, status, paid, hold_until)
         VALUES (?1, ?6, 'T', '2026-12-01', 'x', 540, 30, ?5, 'C', 'claimer@example.com', 8000, ?2, ?3, ?4)`,
        )
        .bind(id, status, paid, holdUntil, userId, treatment);
    const claim = (resource: string, cell: number, owner: { booking?: string; hold?: string; expires?: string }) =>
      db
        .prepare(
          'INSERT INTO claims (day, resource, cell, booking_id, hold_id, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
        )
        .bind('2026-12-01', resource, cell, owner.booking ?? null, owner.hold ?? null, owner.expires ?? null);
    await db.batch([
      booking('paid', 'teeth-cleaning', 'active', 1, null),
      booking('held', 'dental-checkup', 'active', 0, '2026-11-22T00:00:00.000Z'),
      booking('lapsed', 'fluoride-treatment', 'active', 0, '2026-11-21T00:00:00.000Z'),
      booking('cancelled', 'cavity-filling', 'cancelled', 0, null),
      claim('doctor:a', 1, { booking: 'paid' }),
      claim('doctor:a', 2, { booking: 'held' }),
      claim('doctor:a', 3, { booking: 'lapsed' }),
      claim('doctor:a', 4, { booking: 'cancelled' }),
      claim('chair:b', 5, { hold: 'offer-1', expires: '2026-11-21T13:00:00.000Z' }),
      claim('chair:b', 6, { hold: 'offer-2', expires: '2026-11-21T11:00:00.000Z' }),
    ]);
    await expect(claim('doctor:a', 7, {}).run()).rejects.toThrow(/CHECK/);
    const now = new Date('2026-11-21T12:00:00.000Z');
    const live = async () =>
      (await liveClaimsOn(db, '2026-12-01', now).all<ClaimRow>()).results.map((c) => `${c.resource}#${c.cell}`).sort();
    // The cancelled booking's claim would never be left behind by the API; the reader does not judge it.
    expect(await live()).toEqual(['chair:b#5', 'doctor:a#1', 'doctor:a#2', 'doctor:a#4']);
    await db.prepare("UPDATE bookings SET status = 'cancelled' WHERE id = 'lapsed'").run();
    expect((await dropDeadClaims(db, '2026-12-01', now).run()).meta.changes).toBe(3);
    expect(await live()).toEqual(['chair:b#5', 'doctor:a#1', 'doctor:a#2']);
  });
});
