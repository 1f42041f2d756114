import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bookingById,
  bookingsOf,
  bookingToPay,
  cancelActiveBooking,
  insertBooking,
  type NewBookingRow,
  ONE_BOOKING_PER_PATIENT,
  ONE_BOOKING_PER_SLOT,
  releaseLapsedHolds,
  releaseLapsedHoldsInTheWay,
  toBooking,
} from '../../src/data/bookings.ts';
import { violates } from '../../src/data/unique-constraint.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const NOW = new Date('2026-11-21T15:00:00.000Z');
const LATER = '2026-11-22T15:00:00.000Z';
const NINE = '09.00 AM - 09.30 AM';
const NINE_THIRTY = '09.30 AM - 10.00 AM';

let patients = 0;
/** A new patient of their own, so each test starts with no bookings. */
async function newPatient() {
  patients += 1;
  const email = `booker${patients}@example.com`;
  return { id: await addUser(email, `Booker ${patients}`), email, name: `Booker ${patients}` };
}

function bookingOf(
  patient: { id: string; email: string; name: string },
  fields: Partial<NewBookingRow> = {},
): NewBookingRow {
  return {
    id: crypto.randomUUID(),
    treatmentId: 'teeth-cleaning',
    treatment: 'Teeth Cleaning',
    appointmentDate: '2026-12-01',
    slot: NINE,
    userId: patient.id,
    patientName: patient.name,
    email: patient.email,
    phone: '',
    priceCents: 8000,
    createdAt: NOW.toISOString(),
    holdUntil: LATER,
    ...fields,
  };
}

/** Books as POST /api/bookings does: lapsed holds in the way released and the insert, in one batch; answers the insert's changes. */
async function book(booking: NewBookingRow, maxUnpaid = 3): Promise<number> {
  const results = await db.batch([
    ...releaseLapsedHoldsInTheWay(db, booking, maxUnpaid),
    insertBooking(db, booking, maxUnpaid),
  ]);
  return results.at(-1)?.meta.changes ?? 0;
}
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

beforeAll(seed);

describe('bookings: statements against D1', () => {
  it('books a free slot, and refuses a second booking of it as ONE_BOOKING_PER_SLOT', async () => {
    const [first, second] = [await newPatient(), await newPatient()];
    const booking = bookingOf(first, { appointmentDate: '2026-12-02' });
    expect(await book(booking)).toBe(1);
    const error = await failureOf(book(bookingOf(second, { appointmentDate: '2026-12-02' })));
    expect(violates(error, ONE_BOOKING_PER_SLOT)).toBe(true);
    expect(violates(error, ONE_BOOKING_PER_PATIENT)).toBe(false);
    expect((await bookingsOf(db, second.email, NOW)).length).toBe(0);
  });

  it('refuses a patient a second booking of one treatment on one date as ONE_BOOKING_PER_PATIENT', async () => {
    const patient = await newPatient();
    expect(await book(bookingOf(patient, { appointmentDate: '2026-12-03' }))).toBe(1);
    const error = await failureOf(book(bookingOf(patient, { appointmentDate: '2026-12-03', slot: NINE_THIRTY })));
    expect(violates(error, ONE_BOOKING_PER_PATIENT)).toBe(true);
    expect(violates(error, ONE_BOOKING_PER_SLOT)).toBe(false);
  });

  it('releases, in the same batch, an unpaid booking whose hold ended and that holds the slot', async () => {
    const [late, next] = [await newPatient(), await newPatient()];
    const lapsed = bookingOf(late, { appointmentDate: '2026-12-04', holdUntil: '2026-11-21T14:00:00.000Z' });
    expect(await book(lapsed)).toBe(1);
    expect(await book(bookingOf(next, { appointmentDate: '2026-12-04' }))).toBe(1);
    expect(await bookingById(db, lapsed.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
  });

  it('inserts nothing for a patient at the unpaid limit, but a free treatment still books', async () => {
    await db.batch([
      db.prepare("INSERT INTO treatments (id, name, price_cents, position) VALUES ('free-visit', 'Free Visit', 0, 99)"),
      db
        .prepare("INSERT INTO treatment_slots (treatment_id, slot, start_minute) VALUES ('free-visit', ?1, 540)")
        .bind(NINE),
    ]);
    const patient = await newPatient();
    expect(await book(bookingOf(patient, { appointmentDate: '2026-12-05' }), 1)).toBe(1);
    expect(await book(bookingOf(patient, { appointmentDate: '2026-12-06' }), 1)).toBe(0);
    const free = bookingOf(patient, {
      appointmentDate: '2026-12-06',
      treatmentId: 'free-visit',
      treatment: 'Free Visit',
      priceCents: 0,
      holdUntil: null,
    });
    expect(await book(free, 1)).toBe(1);
  });

  it("lists a patient's bookings that still count, by date and time, as the contract's Booking", async () => {
    const patient = await newPatient();
    const later = bookingOf(patient, {
      appointmentDate: '2026-12-08',
      slot: NINE_THIRTY,
      treatmentId: 'dental-checkup',
      treatment: 'Dental Check-up',
    });
    const earlier = bookingOf(patient, { appointmentDate: '2026-12-07' });
    const lapsed = bookingOf(patient, { appointmentDate: '2026-12-09', holdUntil: '2026-11-21T14:00:00.000Z' });
    for (const booking of [later, earlier, lapsed]) expect(await book(booking)).toBe(1);

    const rows = await bookingsOf(db, patient.email.toUpperCase(), NOW);
    expect(rows.map((row) => row.id)).toEqual([earlier.id, later.id]);
    expect(toBooking(rows[0]!, env)).toEqual({
      _id: earlier.id,
      treatment: 'Teeth Cleaning',
      treatmentId: 'teeth-cleaning',
      appointmentDate: 'Dec 7, 2026',
      date: '2026-12-07',
      slot: NINE,
      startsAt: '2026-12-07T14:00:00.000Z', // 9.00 am in New York
      patientName: patient.name,
      patient: patient.name,
      email: patient.email,
      phone: '',
      price: 80,
      paid: false,
      payBy: LATER,
    });
  });

  it('cancels an unpaid booking; a paid one only when told to', async () => {
    const patient = await newPatient();
    const booking = bookingOf(patient, { appointmentDate: '2026-12-10' });
    expect(await book(booking)).toBe(1);
    await db.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(booking.id).run();
    expect((await cancelActiveBooking(db, booking.id, { evenPaid: false, by: 'patient' }).run()).meta.changes).toBe(0);
    expect((await cancelActiveBooking(db, booking.id, { evenPaid: true, by: 'admin' }).run()).meta.changes).toBe(1);
    expect(await bookingById(db, booking.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'admin' });
    expect((await cancelActiveBooking(db, booking.id, { evenPaid: true, by: 'admin' }).run()).meta.changes).toBe(0);
  });

  it('sweeps exactly the unpaid bookings whose hold ended by then, and says a released one is released', async () => {
    const patient = await newPatient();
    const ends = (hour: string) => `2026-11-21T${hour}:00:00.000Z`;
    const due = bookingOf(patient, { appointmentDate: '2026-12-11', holdUntil: ends('14') });
    const notYet = bookingOf(patient, { appointmentDate: '2026-12-12', holdUntil: ends('16') });
    for (const booking of [due, notYet]) expect(await book(booking)).toBe(1);
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });

    await releaseLapsedHolds(db, NOW).run();
    expect(await bookingById(db, due.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await bookingById(db, notYet.id, NOW)).toMatchObject({ status: 'active', expired: 0 });
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });
    expect(await bookingToPay(db, 'id', notYet.id, NOW)).toMatchObject({ released: 0, paid: 0, price_cents: 8000 });
  });
});
