import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { violates } from '../../src/platform/data/unique-constraint.ts';

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const SLOT = { table: 'bookings', columns: ['treatment_id', 'appointment_date', 'slot'] };

describe('violates(error, constraint)', () => {
  it('names the unique rule D1 applied: its table and exactly its columns, in any order', () => {
    const error = new Error(
      'D1_ERROR: UNIQUE constraint failed: bookings.treatment_id, bookings.appointment_date, bookings.slot: SQLITE_CONSTRAINT',
    );
    expect(violates(error, SLOT)).toBe(true);
    expect(violates(error, { table: 'bookings', columns: ['slot', 'appointment_date', 'treatment_id'] })).toBe(true);
    expect(violates(error, { table: 'bookings', columns: ['treatment_id', 'appointment_date'] })).toBe(false);
    expect(
      violates(error, { table: 'bookings', columns: ['treatment_id', 'appointment_date', 'slot', 'user_id'] }),
    ).toBe(false);
    expect(violates(error, { table: 'payments', columns: ['treatment_id', 'appointment_date', 'slot'] })).toBe(false);
  });

  it('is false for any other failure of D1 and for anything that is not an error of D1', async () => {
    const check = await failureOf(
      env.DB.prepare("INSERT INTO stripe_events (id, type, created) VALUES ('e', 't', NULL)").run(),
    );
    expect(String(check)).toContain('NOT NULL');
    expect(violates(check, { table: 'stripe_events', columns: ['created'] })).toBe(false);
    expect(violates(new Error('UNIQUE'), SLOT)).toBe(false);
    expect(violates(undefined, SLOT)).toBe(false);
  });
});
