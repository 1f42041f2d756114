import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_TREATMENTS } from '../../../scripts/seed-data.ts';
import {
  allTreatments,
  deleteOrDeactivateTreatment,
  insertTreatment,
  scheduleTreatments,
  TREATMENT_NAME,
  type TreatmentRow,
  treatmentState,
  updateTreatment,
} from '../../src/clinic/data/treatments.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const fields = {
  name: 'Implant Review',
  priceCents: 9950,
  durationMinutes: 45,
  specialtyId: 'endodontics',
  active: true,
};

beforeAll(seed);

describe('treatments: statements against D1', () => {
  it('reads every treatment with its length and specialty for the schedule, in the clinic’s order', async () => {
    const { results } = await scheduleTreatments(db).all<TreatmentRow>();
    expect(results).toEqual(
      SEED_TREATMENTS.map((t) => ({
        id: t.id,
        name: t.name,
        price_cents: t.priceCents,
        duration_minutes: t.durationMinutes,
        specialty_id: t.specialty,
        active: 1,
        payment: 'full',
        deposit_percent: null,
      })),
    );
  });

  it('adds a treatment after the others, listed with its specialty’s name; a name taken fails on TREATMENT_NAME', async () => {
    await insertTreatment(db, 'implant-review', fields).run();
    expect((await allTreatments(db)).at(-1)).toEqual({
      _id: 'implant-review',
      name: 'Implant Review',
      price: 99.5,
      durationMinutes: 45,
      specialty: 'Endodontics',
      active: true,
      recallMonths: null,
      payment: 'full',
      depositPercent: null,
    });
    expect(violates(await failureOf(insertTreatment(db, 'another', fields).run()), TREATMENT_NAME)).toBe(true);
  });

  it('changes only the fields given, and nothing for an unknown id', async () => {
    const none = { name: null, priceCents: null, durationMinutes: null, specialtyId: null, active: null };
    expect(
      (await updateTreatment(db, 'implant-review', { ...none, priceCents: 12000, active: false }).run()).meta.changes,
    ).toBe(1);
    expect(await treatmentState(db, 'implant-review')).toEqual({
      name: 'Implant Review',
      active: false,
      payment: 'full',
      deposit_percent: null,
    });
    expect((await allTreatments(db)).find((t) => t._id === 'implant-review')).toMatchObject({
      price: 120,
      durationMinutes: 45,
      active: false,
    });
    expect((await updateTreatment(db, 'no-such', { ...none, priceCents: 1 }).run()).meta.changes).toBe(0);
    expect(
      violates(
        await failureOf(updateTreatment(db, 'implant-review', { ...none, name: 'Teeth Cleaning' }).run()),
        TREATMENT_NAME,
      ),
    ).toBe(true);
    expect(await treatmentState(db, 'no-such')).toBeNull();
  });

  it('keeps a deposit’s share only while the rule is a deposit', async () => {
    await insertTreatment(db, 'deposit-one', {
      ...fields,
      name: 'Deposit One',
      payment: 'deposit',
      depositPercent: 25,
    }).run();
    expect(await treatmentState(db, 'deposit-one')).toMatchObject({ payment: 'deposit', deposit_percent: 25 });
    const none = { name: null, priceCents: null, durationMinutes: null, specialtyId: null, active: null };
    await updateTreatment(db, 'deposit-one', { ...none, depositPercent: 40 }).run();
    expect(await treatmentState(db, 'deposit-one')).toMatchObject({ payment: 'deposit', deposit_percent: 40 });
    await updateTreatment(db, 'deposit-one', { ...none, payment: 'card' }).run();
    expect(await treatmentState(db, 'deposit-one')).toMatchObject({ payment: 'card', deposit_percent: null });
    await insertTreatment(db, 'full-one', { ...fields, name: 'Full One', depositPercent: 25 }).run();
    expect(await treatmentState(db, 'full-one')).toMatchObject({ payment: 'full', deposit_percent: null });
  });

  it('deletes a treatment without upcoming bookings, and deactivates one with them', async () => {
    const userId = await addUser('implant@example.com', 'Implant Patient');
    await insertTreatment(db, 'booked-one', { ...fields, name: 'Booked One' }).run();
    await db
      .prepare(
        `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id, patient_name, email, price_cents)
       VALUES ('b-upcoming', 'booked-one', 'Booked One', '2026-12-01', '09.00 AM - 09.45 AM', 540, 45, ?1, 'P', 'implant@example.com', 9950),
              ('b-past', 'implant-review', 'Implant Review', '2026-11-01', '09.00 AM - 09.45 AM', 540, 45, ?1, 'P', 'implant@example.com', 9950)`,
      )
      .bind(userId)
      .run();
    const changes = async (id: string) =>
      (await db.batch(deleteOrDeactivateTreatment(db, id, '2026-11-21'))).map((r) => r.meta.changes);
    expect(await changes('booked-one')).toEqual([1, 0]);
    expect(await treatmentState(db, 'booked-one')).toMatchObject({ name: 'Booked One', active: false });
    expect(await changes('implant-review')).toEqual([0, 1]);
    expect(await treatmentState(db, 'implant-review')).toBeNull();
  });
});
