import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_DOCTORS } from '../../../scripts/seed-data.ts';
import {
  allDoctors,
  DOCTOR_EMAIL,
  DOCTOR_PHOTO,
  insertDoctor,
  removeDoctor,
  type WeekdayHours,
} from '../../src/clinic/data/doctors.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { seed } from '../helpers.ts';

const db = env.DB;
const doctor = (fields: Partial<Parameters<typeof insertDoctor>[1]> = {}) => ({
  id: crypto.randomUUID(),
  name: 'Dr. Quinn',
  email: 'quinn@clinic.test',
  specialtyId: 'general-dentistry',
  imageKey: 'doctors/quinn0001.png',
  // Monday to Friday 08:00-12:30, Wednesday afternoons instead.
  weekly: [1, 2, 3, 4, 5].map((day): WeekdayHours => (day === 3 ? [3, 780, 1080] : [day, 480, 750])),
  ...fields,
});
const run = (statements: D1PreparedStatement[]) => db.batch(statements);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

beforeAll(seed);

describe('doctors: statements against D1', () => {
  it('adds a doctor, listed last with the URL of their photo', async () => {
    const added = doctor();
    await run(insertDoctor(db, added));
    const doctors = await allDoctors(db);
    expect(doctors).toHaveLength(SEED_DOCTORS.length + 1);
    expect(doctors.at(-1)).toEqual({
      _id: added.id,
      name: 'Dr. Quinn',
      email: 'quinn@clinic.test',
      specialty: 'General Dentistry',
      image: '/api/images/doctors/quinn0001.png',
      workingDays: [1, 2, 3, 4, 5],
      hours: { start: '08:00', end: '18:00' },
      weeklyHours: [
        { weekday: 1, start: '08:00', end: '12:30' },
        { weekday: 2, start: '08:00', end: '12:30' },
        { weekday: 3, start: '13:00', end: '18:00' },
        { weekday: 4, start: '08:00', end: '12:30' },
        { weekday: 5, start: '08:00', end: '12:30' },
      ],
    });
  });

  it('refuses a second doctor with an email (any case) as DOCTOR_EMAIL, and a photo already used as DOCTOR_PHOTO', async () => {
    const sameEmail = await failureOf(
      run(insertDoctor(db, doctor({ email: 'QUINN@clinic.test', imageKey: 'doctors/other001.png' }))),
    );
    expect(violates(sameEmail, DOCTOR_EMAIL)).toBe(true);
    expect(violates(sameEmail, DOCTOR_PHOTO)).toBe(false);
    const samePhoto = await failureOf(run(insertDoctor(db, doctor({ email: 'other@clinic.test' }))));
    expect(violates(samePhoto, DOCTOR_PHOTO)).toBe(true);
    expect(violates(samePhoto, DOCTOR_EMAIL)).toBe(false);
  });

  it('removes a doctor, answering the key of their photo, and nothing for an unknown one', async () => {
    const removed = doctor({ email: 'gone@clinic.test', imageKey: 'doctors/gone0001.png' });
    await run(insertDoctor(db, removed));
    expect(await removeDoctor(db, removed.id).first()).toEqual({ image_key: 'doctors/gone0001.png' });
    expect(await removeDoctor(db, removed.id).first()).toBeNull();
    expect((await allDoctors(db)).map((d) => d._id)).not.toContain(removed.id);
  });
});
