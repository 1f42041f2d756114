import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_TREATMENTS, slotLabel } from '../../../scripts/seed-data.ts';
import { insertBooking, type NewBookingRow } from '../../src/data/bookings.ts';
import {
  freeSlotsOn,
  isTreatmentName,
  slotStartMinute,
  specialties,
  treatmentByIdOrName,
} from '../../src/data/treatments.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const NOW = new Date('2026-11-21T15:00:00.000Z');
const DATE = '2026-12-01';

beforeAll(seed);

async function bookTeethCleaning(slot: string, holdUntil: string | null) {
  const email = `slot-${crypto.randomUUID()}@example.com`;
  const booking: NewBookingRow = {
    id: crypto.randomUUID(),
    treatmentId: 'teeth-cleaning',
    treatment: 'Teeth Cleaning',
    appointmentDate: DATE,
    slot,
    userId: await addUser(email, 'Slot Taker'),
    patientName: 'Slot Taker',
    email,
    phone: '',
    priceCents: 8000,
    createdAt: NOW.toISOString(),
    holdUntil,
  };
  await insertBooking(db, booking, 3).run();
}

describe('treatments: statements against D1', () => {
  it('finds a treatment by id or by name, and its slots by their label', async () => {
    const byName = await treatmentByIdOrName(db, 'Teeth Cleaning');
    expect(byName).toEqual({ id: 'teeth-cleaning', name: 'Teeth Cleaning', price_cents: 8000 });
    expect(await treatmentByIdOrName(db, 'teeth-cleaning')).toEqual(byName);
    expect(await treatmentByIdOrName(db, 'Teeth')).toBeNull();
    expect(await slotStartMinute(db, 'teeth-cleaning', '09.30 AM - 10.00 AM')).toBe(570);
    expect(await slotStartMinute(db, 'teeth-cleaning', '09.15 AM - 09.45 AM')).toBeNull();
    expect(await isTreatmentName(db, 'Root Canal Treatment')).toBe(true);
    expect(await isTreatmentName(db, 'root-canal')).toBe(false);
  });

  it('lists the specialties in the clinic’s order', async () => {
    expect(await specialties(db)).toEqual(SEED_TREATMENTS.map((t) => ({ _id: t.id, name: t.name })));
  });

  it('offers every treatment with its slots from a minute on, leaving out those booked, but not those whose hold ended', async () => {
    const [first, second, third] = SEED_TREATMENTS[0]!.slots.map(slotLabel);
    await bookTeethCleaning(first!, null);
    await bookTeethCleaning(second!, '2026-11-21T14:00:00.000Z'); // unpaid, hold ended before NOW
    await bookTeethCleaning(third!, '2026-11-21T16:00:00.000Z'); // unpaid, still held

    const options = await freeSlotsOn(db, DATE, 0, NOW);
    expect(options.map((o) => o.name)).toEqual(SEED_TREATMENTS.map((t) => t.name));
    const cleaning = options[0]!;
    expect(cleaning).toMatchObject({ _id: 'teeth-cleaning', price: 80 });
    expect(cleaning.slots).toContain(second);
    expect(cleaning.slots).not.toContain(first);
    expect(cleaning.slots).not.toContain(third);
    expect(cleaning.slots).toHaveLength(SEED_TREATMENTS[0]!.slots.length - 2);

    const afternoon = await freeSlotsOn(db, DATE, 16 * 60, NOW);
    expect(afternoon[0]?.slots).toEqual(['04.00 PM - 04.30 PM', '04.30 PM - 05.00 PM']);
    expect((await freeSlotsOn(db, DATE, 24 * 60, NOW)).every((o) => o.slots.length === 0)).toBe(true);
  });
});
