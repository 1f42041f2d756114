import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_DOCTORS } from '../../../scripts/seed-data.ts';
import { allDoctors, DOCTOR_EMAIL, DOCTOR_PHOTO, insertDoctor, removeDoctor } from '../../src/clinic/data/doctors.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { seed } from '../helpers.ts';

const db = env.DB;
const doctor = (fields: Partial<Parameters<typeof insertDoctor>[1]> = {}) => ({
  id: crypto.randomUUID(),
  name: 'Dr. Quinn',
  email: 'quinn@clinic.test',
  specialtyId: 'general-dentistry',
  imageKey: 'doctors/quinn0001.png',
  workingDays: 0b0111110,
  startMinute: 8 * 60,
  endMinute: 12 * 60 + 30,
  ...fields,
});
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

beforeAll(seed);

describe('doctors: statements against D1', () => {
  it('adds a doctor, listed last with the URL of their photo', async () => {
    const added = doctor();
    await insertDoctor(db, added).run();
    const doctors = await allDoctors(db);
    expect(doctors).toHaveLength(SEED_DOCTORS.length + 1);
    expect(doctors.at(-1)).toEqual({
      _id: added.id,
      name: 'Dr. Quinn',
      email: 'quinn@clinic.test',
      specialty: 'General Dentistry',
      image: '/api/images/doctors/quinn0001.png',
      workingDays: [1, 2, 3, 4, 5],
      hours: { start: '08:00', end: '12:30' },
    });
  });

  it('refuses a second doctor with an email (any case) as DOCTOR_EMAIL, and a photo already used as DOCTOR_PHOTO', async () => {
    const sameEmail = await failureOf(
      insertDoctor(db, doctor({ email: 'QUINN@clinic.test', imageKey: 'doctors/other001.png' })).run(),
    );
    expect(violates(sameEmail, DOCTOR_EMAIL)).toBe(true);
    expect(violates(sameEmail, DOCTOR_PHOTO)).toBe(false);
    const samePhoto = await failureOf(insertDoctor(db, doctor({ email: 'other@clinic.test' })).run());
    expect(violates(samePhoto, DOCTOR_PHOTO)).toBe(true);
    expect(violates(samePhoto, DOCTOR_EMAIL)).toBe(false);
  });

  it('removes a doctor, answering the key of their photo, and nothing for an unknown one', async () => {
    const removed = doctor({ email: 'gone@clinic.test', imageKey: 'doctors/gone0001.png' });
    await insertDoctor(db, removed).run();
    expect(await removeDoctor(db, removed.id).first()).toEqual({ image_key: 'doctors/gone0001.png' });
    expect(await removeDoctor(db, removed.id).first()).toBeNull();
    expect((await allDoctors(db)).map((d) => d._id)).not.toContain(removed.id);
  });
});
