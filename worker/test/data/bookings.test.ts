import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKINGS_OF_SQL,
  bookingById,
  bookingsOf,
  bookingToPay,
  cancelActiveBooking,
  insertBooking,
  type MoveRow,
  markStranded,
  moveStatements,
  type NewBookingRow,
  ONE_BOOKING_PER_PATIENT,
  releaseLapsedHolds,
  releaseLapsedHoldsInTheWay,
  type ScheduleChange,
  type StrandedRow,
  strandedBookings,
  toBooking,
  toStranded,
} from '../../src/booking/data/bookings.ts';
import {
  chairResource,
  doctorResource,
  dropDeadClaims,
  freeClaimsOfEndedBooking,
  insertClaims,
  ONE_CLAIM_PER_CELL,
} from '../../src/booking/data/claims.ts';
import { cellsOf } from '../../src/booking/schedule.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const NOW = new Date('2026-11-21T15:00:00.000Z');
const LATER = '2026-11-22T15:00:00.000Z';
const NINE = '09.00 AM - 09.30 AM';

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
    startMinute: 540,
    durationMinutes: 30,
    doctorId: 'dr-sofia-alvarez',
    chairId: 'chair-1',
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

/**
 * Books as POST /api/bookings does, in one batch: lapsed holds in the way released, dead claims
 * dropped, the insert and its claims; answers the insert's changes.
 */
async function book(booking: NewBookingRow, maxUnpaid = 3): Promise<number> {
  const resources = [doctorResource(booking.doctorId), chairResource(booking.chairId)] as const;
  const cells = cellsOf(booking.startMinute, booking.durationMinutes);
  const results = await db.batch([
    ...releaseLapsedHoldsInTheWay(db, booking, maxUnpaid, { resources, ...cells }),
    dropDeadClaims(db, booking.appointmentDate, new Date(booking.createdAt)),
    insertBooking(db, booking, maxUnpaid),
    insertClaims(db, { bookingId: booking.id, day: booking.appointmentDate, resources, ...cells }),
  ]);
  return results.at(-2)?.meta.changes ?? 0;
}
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const claimsOf = async (bookingId: string) =>
  (
    await db
      .prepare('SELECT resource, cell FROM claims WHERE booking_id = ?1 ORDER BY resource, cell')
      .bind(bookingId)
      .all()
  ).results;

beforeAll(seed);

describe('bookings: statements against D1', () => {
  it('claims every cell of a booking on its doctor and its chair', async () => {
    const booking = bookingOf(await newPatient(), {
      appointmentDate: '2026-12-02',
      treatmentId: 'cavity-filling',
      treatment: 'Cavity Filling',
      startMinute: 570,
      durationMinutes: 60,
    });
    expect(await book(booking)).toBe(1);
    expect(await claimsOf(booking.id)).toEqual([
      ...[38, 39, 40, 41].map((cell) => ({ resource: 'chair:chair-1', cell })),
      ...[38, 39, 40, 41].map((cell) => ({ resource: 'doctor:dr-sofia-alvarez', cell })),
    ]);
  });

  it('refuses a booking that overlaps another on its doctor or its chair by one cell as ONE_CLAIM_PER_CELL, and stores nothing of it', async () => {
    const [first, second] = [await newPatient(), await newPatient()];
    expect(
      await book(
        bookingOf(first, {
          appointmentDate: '2026-12-03',
          startMinute: 540,
          durationMinutes: 60,
          treatmentId: 'cavity-filling',
          treatment: 'Cavity Filling',
        }),
      ),
    ).toBe(1);
    // The same doctor from 09.45, another chair.
    const sameDoctor = bookingOf(second, { appointmentDate: '2026-12-03', startMinute: 585, chairId: 'chair-2' });
    const error = await failureOf(book(sameDoctor));
    expect(violates(error, ONE_CLAIM_PER_CELL)).toBe(true);
    expect(violates(error, ONE_BOOKING_PER_PATIENT)).toBe(false);
    // The same chair from 09.45, another doctor (the whitening is the cosmetic dentist's).
    const sameChair = bookingOf(second, {
      appointmentDate: '2026-12-03',
      startMinute: 585,
      treatmentId: 'teeth-whitening',
      treatment: 'Teeth Whitening',
      doctorId: 'dr-amelia-hart',
    });
    expect(violates(await failureOf(book(sameChair)), ONE_CLAIM_PER_CELL)).toBe(true);
    expect(await bookingById(db, sameDoctor.id, NOW)).toBeNull();
    expect(await claimsOf(sameChair.id)).toEqual([]);
    // Right after it, on both: fine.
    expect(await book(bookingOf(second, { appointmentDate: '2026-12-03', startMinute: 600 }))).toBe(1);
  });

  it('refuses a patient a second booking of one treatment on one date as ONE_BOOKING_PER_PATIENT', async () => {
    const patient = await newPatient();
    expect(await book(bookingOf(patient, { appointmentDate: '2026-12-04' }))).toBe(1);
    const error = await failureOf(
      book(bookingOf(patient, { appointmentDate: '2026-12-04', startMinute: 660, chairId: 'chair-2' })),
    );
    expect(violates(error, ONE_BOOKING_PER_PATIENT)).toBe(true);
    expect(violates(error, ONE_CLAIM_PER_CELL)).toBe(false);
  });

  it('releases, in the same batch, an unpaid booking whose hold ended and that holds a cell, and drops its claims', async () => {
    const [late, next] = [await newPatient(), await newPatient()];
    const lapsed = bookingOf(late, { appointmentDate: '2026-12-05', holdUntil: '2026-11-21T14:00:00.000Z' });
    expect(await book(lapsed)).toBe(1);
    const taking = bookingOf(next, {
      appointmentDate: '2026-12-05',
      startMinute: 555,
      durationMinutes: 30,
      chairId: 'chair-2',
    });
    expect(await book(taking)).toBe(1);
    expect(await bookingById(db, lapsed.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await claimsOf(lapsed.id)).toEqual([]);
    expect(await claimsOf(taking.id)).toHaveLength(4);
  });

  it('inserts nothing, claims included, for a patient at the unpaid limit, but a free treatment still books', async () => {
    await db
      .prepare(
        "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-visit', 'Free Visit', 0, 30, 'general-dentistry', 99)",
      )
      .run();
    const patient = await newPatient();
    expect(await book(bookingOf(patient, { appointmentDate: '2026-12-06' }), 1)).toBe(1);
    const refused = bookingOf(patient, { appointmentDate: '2026-12-07' });
    expect(await book(refused, 1)).toBe(0);
    expect(await claimsOf(refused.id)).toEqual([]);
    const free = bookingOf(patient, {
      appointmentDate: '2026-12-07',
      treatmentId: 'free-visit',
      treatment: 'Free Visit',
      priceCents: 0,
      holdUntil: null,
    });
    expect(await book(free, 1)).toBe(1);
  });

  it('inserts nothing for a treatment that is no longer offered', async () => {
    await db
      .prepare(
        "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, active) VALUES ('gone', 'Gone', 100, 30, 'general-dentistry', 0)",
      )
      .run();
    const booking = bookingOf(await newPatient(), {
      appointmentDate: '2026-12-08',
      treatmentId: 'gone',
      treatment: 'Gone',
    });
    expect(await book(booking)).toBe(0);
    expect(await claimsOf(booking.id)).toEqual([]);
  });

  it("lists a patient's bookings that still count, by date and time, as the contract's Booking with its doctor and length", async () => {
    const patient = await newPatient();
    const later = bookingOf(patient, {
      appointmentDate: '2026-12-10',
      slot: '09.30 AM - 10.00 AM',
      startMinute: 570,
      treatmentId: 'dental-checkup',
      treatment: 'Dental Check-up',
    });
    const earlier = bookingOf(patient, { appointmentDate: '2026-12-09' });
    const lapsed = bookingOf(patient, { appointmentDate: '2026-12-11', holdUntil: '2026-11-21T14:00:00.000Z' });
    for (const booking of [later, earlier, lapsed]) expect(await book(booking)).toBe(1);

    const rows = await bookingsOf(db, patient.id, NOW, '2026-11-21');
    expect(rows.map((row) => row.id)).toEqual([earlier.id, later.id]);
    expect(toBooking(rows[0]!, env)).toEqual({
      _id: earlier.id,
      treatment: 'Teeth Cleaning',
      treatmentId: 'teeth-cleaning',
      appointmentDate: 'Dec 9, 2026',
      date: '2026-12-09',
      slot: NINE,
      startsAt: '2026-12-09T14:00:00.000Z', // 9.00 am in New York
      patientName: patient.name,
      patient: patient.name,
      email: patient.email,
      phone: '',
      price: 80,
      paid: false,
      payBy: LATER,
      durationMinutes: 30,
      doctor: { name: 'Dr. Sofia Alvarez', image: '/api/images/doctors/seed-dr-sofia-alvarez.png' },
      status: 'active',
      cancelNote: null,
    });
  });

  it("reads a patient's bookings through the index on their user id, in its order, never scanning all bookings", async () => {
    const { results } = await db
      .prepare(`EXPLAIN QUERY PLAN ${BOOKINGS_OF_SQL}`)
      .bind('someone', NOW.toISOString(), '2026-11-21')
      .all<{ detail: string }>();
    const plan = results.map((step) => step.detail);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH b USING INDEX bookings_by_user \(user_id=\?\)/));
    expect(plan.filter((step) => /^SCAN b\b/.test(step))).toEqual([]);
  });

  it('cancels an unpaid booking and frees its claims in that batch; a paid one only when told to', async () => {
    const patient = await newPatient();
    const booking = bookingOf(patient, { appointmentDate: '2026-12-12' });
    expect(await book(booking)).toBe(1);
    await db.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(booking.id).run();
    const cancel = (evenPaid: boolean) =>
      db.batch([
        cancelActiveBooking(db, booking.id, { evenPaid, by: evenPaid ? 'admin' : 'patient' }),
        freeClaimsOfEndedBooking(db, booking.id),
      ]);
    const [kept] = await cancel(false);
    expect(kept?.meta.changes).toBe(0);
    expect(await claimsOf(booking.id)).toHaveLength(4);
    const [cancelled, freed] = await cancel(true);
    expect([cancelled?.meta.changes, freed?.meta.changes]).toEqual([1, 4]);
    expect(await bookingById(db, booking.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'admin' });
    expect((await cancel(true))[0]?.meta.changes).toBe(0);
  });

  it('sweeps exactly the unpaid bookings whose hold ended by then, with their claims, and says a released one is released', async () => {
    const patient = await newPatient();
    const ends = (hour: string) => `2026-11-21T${hour}:00:00.000Z`;
    const due = bookingOf(patient, { appointmentDate: '2026-12-13', holdUntil: ends('14') });
    const notYet = bookingOf(patient, { appointmentDate: '2026-12-14', holdUntil: ends('16') });
    for (const booking of [due, notYet]) expect(await book(booking)).toBe(1);
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });

    await db.batch(releaseLapsedHolds(db, NOW));
    expect(await bookingById(db, due.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await claimsOf(due.id)).toEqual([]);
    expect(await bookingById(db, notYet.id, NOW)).toMatchObject({ status: 'active', expired: 0 });
    expect(await claimsOf(notYet.id)).toHaveLength(4);
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });
    expect(await bookingToPay(db, 'id', notYet.id, NOW)).toMatchObject({ released: 0, paid: 0, price_cents: 8000 });
  });
});

describe('bookings a schedule change strands', () => {
  // Upcoming from the clinic's clock at NOW: 2026-11-21, 10.00 am in New York.
  const patientBookings: NewBookingRow[] = [];
  let patient: Awaited<ReturnType<typeof newPatient>>;
  beforeAll(async () => {
    patient = await newPatient();
    const add = async (fields: Partial<NewBookingRow>) => {
      const booking = bookingOf(patient, fields);
      expect(await book(booking, 10)).toBe(1);
      patientBookings.push(booking);
    };
    await add({
      appointmentDate: '2026-11-21',
      startMinute: 9 * 60,
      treatmentId: 'dental-checkup',
      treatment: 'Dental Check-up',
    }); // started
    await add({ appointmentDate: '2026-11-21', startMinute: 11 * 60 }); // later today
    await add({
      appointmentDate: '2026-11-24',
      startMinute: 16 * 60,
      durationMinutes: 60,
      treatmentId: 'cavity-filling',
      treatment: 'Cavity Filling',
      chairId: 'chair-2',
    }); // a Tuesday
    await add({
      appointmentDate: '2026-11-28',
      startMinute: 10 * 60,
      treatmentId: 'teeth-whitening',
      treatment: 'Teeth Whitening',
      doctorId: 'dr-amelia-hart',
    }); // a Saturday
    await add({
      appointmentDate: '2026-11-29',
      startMinute: 10 * 60,
      treatmentId: 'fluoride-treatment',
      treatment: 'Fluoride Treatment',
      holdUntil: '2026-11-21T14:00:00.000Z',
    }); // released
  });

  /** This patient's bookings the change strands (the other tests' bookings are upcoming too). */
  async function stranded(change: ScheduleChange): Promise<string[]> {
    const { results } = await strandedBookings(env, change, NOW).all<StrandedRow>();
    return results
      .filter((row) => row.email === patient.email)
      .map((row) => `${row.appointment_date} ${row.treatment}`);
  }

  it('finds the upcoming, live bookings each kind of change leaves out, by date and time', async () => {
    const all = ['2026-11-21 Teeth Cleaning', '2026-11-24 Cavity Filling', '2026-11-28 Teeth Whitening'];
    expect(await stranded({ kind: 'closure', from: '2026-11-21', to: '2026-11-30', doctorId: null })).toEqual(all);
    expect(await stranded({ kind: 'closure', from: '2026-11-22', to: '2026-11-27', doctorId: null })).toEqual([
      '2026-11-24 Cavity Filling',
    ]);
    expect(
      await stranded({ kind: 'closure', from: '2026-11-21', to: '2026-11-30', doctorId: 'dr-amelia-hart' }),
    ).toEqual(['2026-11-28 Teeth Whitening']);
    // Closed on Sundays (the released booking's day), Tuesdays until 16.30: the filling (16.00-17.00) is out.
    const week = [1, 2, 3, 4, 5, 6].map((d) => [d, 540, d === 2 ? 990 : 1020] as const);
    expect(await stranded({ kind: 'hours', hours: week })).toEqual(['2026-11-24 Cavity Filling']);
    // Closed on Saturdays (Nov 21 and 28).
    const weekdays = [0, 1, 2, 3, 4, 5].map((d) => [d, 540, 1020] as const);
    expect(await stranded({ kind: 'hours', hours: weekdays })).toEqual([
      '2026-11-21 Teeth Cleaning',
      '2026-11-28 Teeth Whitening',
    ]);
    // Opening at 11.15 strands the cleaning at 11.00 today.
    const late = [0, 1, 2, 3, 4, 5, 6].map((d) => [d, 675, 1020] as const);
    expect(await stranded({ kind: 'hours', hours: late })).toEqual([
      '2026-11-21 Teeth Cleaning',
      '2026-11-28 Teeth Whitening',
    ]);
    const sofia = {
      kind: 'doctor',
      doctorId: 'dr-sofia-alvarez',
      workingDays: 0b1111111,
      start: 540,
      end: 1020,
      specialtyId: null,
    } as const;
    expect(await stranded(sofia)).toEqual([]);
    expect(await stranded({ ...sofia, workingDays: 0b1111011 })).toEqual(['2026-11-24 Cavity Filling']);
    expect(await stranded({ ...sofia, start: 660 })).toEqual([]);
    expect(await stranded({ ...sofia, end: 1005 })).toEqual(['2026-11-24 Cavity Filling']);
    expect(await stranded({ ...sofia, specialtyId: 'endodontics' })).toEqual([
      '2026-11-21 Teeth Cleaning',
      '2026-11-24 Cavity Filling',
    ]);
    expect(await stranded({ kind: 'doctor deleted', doctorId: 'dr-amelia-hart' })).toEqual([
      '2026-11-28 Teeth Whitening',
    ]);
    expect(await stranded({ kind: 'chair deleted', chairId: 'chair-2' })).toEqual(['2026-11-24 Cavity Filling']);
  });

  it('marks exactly them for review, and answers them as the contract says', async () => {
    const change = { kind: 'closure', from: '2026-11-24', to: '2026-11-24', doctorId: null } as const;
    const [found, marked] = await db.batch([strandedBookings(env, change, NOW), markStranded(env, change, NOW)]);
    expect(marked?.meta.changes).toBe(1);
    const filling = patientBookings[2]!;
    const [row] = (found?.results ?? []) as StrandedRow[];
    expect(row && toStranded(row)).toEqual({
      _id: filling.id,
      treatment: 'Cavity Filling',
      appointmentDate: 'Nov 24, 2026',
      date: '2026-11-24',
      slot: NINE, // as the test stored it
      patientName: filling.patientName,
      email: filling.email,
      phone: '',
      doctor: 'Dr. Sofia Alvarez',
    });
    const { results } = await db.prepare('SELECT id FROM bookings WHERE needs_review = 1').all<{ id: string }>();
    expect(results.map((r) => r.id)).toEqual([filling.id]);
  });
});

describe('moving a booking: statements against D1', () => {
  const moveOf = (booking: NewBookingRow, paid: number, to: Partial<MoveRow['to']> = {}): MoveRow => ({
    from: { id: booking.id, paid, paymentIntentId: null },
    to: {
      id: crypto.randomUUID(),
      appointmentDate: '2026-12-20',
      slot: '10.00 AM - 10.30 AM',
      startMinute: 600,
      durationMinutes: 30,
      doctorId: 'dr-sofia-alvarez',
      chairId: 'chair-2',
      holdUntil: null,
      ...to,
    },
    at: NOW.toISOString(),
  });
  const run = (move: MoveRow) => {
    const resources = [doctorResource(move.to.doctorId), chairResource(move.to.chairId)] as const;
    return db.batch([
      ...moveStatements(
        db,
        move,
        freeClaimsOfEndedBooking(db, move.from.id),
        dropDeadClaims(db, move.to.appointmentDate, NOW),
      ),
      insertClaims(db, {
        bookingId: move.to.id,
        day: move.to.appointmentDate,
        resources,
        ...cellsOf(move.to.startMinute, move.to.durationMinutes),
      }),
    ]);
  };
  const statusOf = (id: string) => db.prepare('SELECT status, moved_to FROM bookings WHERE id = ?1').bind(id).first();

  it('moves the booking, its claims and its patient to the new time', async () => {
    const booking = bookingOf(await newPatient(), { appointmentDate: '2026-12-19' });
    expect(await book(booking)).toBe(1);
    const move = moveOf(booking, 0);
    const [marked] = await run(move);
    expect(marked?.meta.changes).toBe(1);
    expect(await statusOf(booking.id)).toEqual({ status: 'moved', moved_to: move.to.id });
    expect(await claimsOf(booking.id)).toEqual([]);
    expect(await claimsOf(move.to.id)).toHaveLength(4);
    expect(
      await db.prepare('SELECT user_id, price_cents, paid FROM bookings WHERE id = ?1').bind(move.to.id).first(),
    ).toEqual({
      user_id: booking.userId,
      price_cents: 8000,
      paid: 0,
    });
  });

  it('does nothing when the booking is no longer as it was read (paid meanwhile, or moved already)', async () => {
    const booking = bookingOf(await newPatient(), { appointmentDate: '2026-12-21' });
    expect(await book(booking)).toBe(1);
    await db.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(booking.id).run();
    const stale = moveOf(booking, 0, { appointmentDate: '2026-12-22' });
    const [marked] = await run(stale);
    expect(marked?.meta.changes).toBe(0);
    expect(await statusOf(booking.id)).toEqual({ status: 'active', moved_to: null });
    expect(await claimsOf(booking.id)).toHaveLength(4);
    expect(await db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(stale.to.id).first()).toBeNull();

    const first = moveOf(booking, 1, { appointmentDate: '2026-12-22' });
    expect((await run(first))[0]?.meta.changes).toBe(1);
    const second = moveOf(booking, 1, { appointmentDate: '2026-12-22', startMinute: 660, slot: '11.00 AM - 11.30 AM' });
    expect((await run(second))[0]?.meta.changes).toBe(0);
    expect(await statusOf(booking.id)).toEqual({ status: 'moved', moved_to: first.to.id });
    expect(await db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(second.to.id).first()).toBeNull();
  });
});
