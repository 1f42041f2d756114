import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKINGS_OF_SQL,
  type BookingRow,
  bookingById,
  bookingsOf,
  bookingToPay,
  ONE_BOOKING_PER_PATIENT,
  toBooking,
} from '../../src/booking/data/bookings.ts';
import { chairResource, doctorResource, patientResource } from '../../src/booking/data/claims.ts';
import {
  type ScheduleChange,
  type StrandedRow,
  strandClock,
  strandedBookings,
  toStranded,
} from '../../src/booking/data/strand.ts';
import {
  cancelActiveBooking,
  checkPlacement,
  dropDeadClaims,
  freeClaimsOfEndedBooking,
  insertBooking,
  insertClaims,
  type MoveRow,
  markStranded,
  moveStatements,
  type NewBookingRow,
  ONE_CLAIM_PER_CELL,
  releaseLapsedHolds,
  releaseLapsedHoldsInTheWay,
} from '../../src/booking/data/writes.ts';
import { brokenRule } from '../../src/booking/engine/rules.ts';
import { cellsOf } from '../../src/booking/schedule.ts';
import { clinicInstant } from '../../src/platform/clinic-time.ts';
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
    paymentRule: 'full',
    depositCents: null,
    noShowFeeCents: 0,
    lateCancelFeeCents: 0,
    ...fields,
  };
}

const claimOf = (booking: NewBookingRow) => ({
  day: booking.appointmentDate,
  resources: [doctorResource(booking.doctorId), chairResource(booking.chairId), patientResource(booking.userId)],
  ...cellsOf(booking.startMinute, booking.durationMinutes),
});

/**
 * Books as the engine does, in one batch: lapsed holds in the way released, dead claims dropped,
 * the placement check (unless `checked` is false: a booking of the past for the tests' setup), the
 * insert and its claims on the doctor, the chair and the patient.
 */
async function book(booking: NewBookingRow, maxUnpaid: number | null = 3, checked = true): Promise<void> {
  const claim = claimOf(booking);
  await db.batch([
    ...releaseLapsedHoldsInTheWay(db, { userId: booking.userId, treatmentId: booking.treatmentId, claim }, NOW),
    dropDeadClaims(db, booking.appointmentDate, NOW),
    ...(checked
      ? [
          checkPlacement(db, {
            treatmentId: booking.treatmentId,
            day: booking.appointmentDate,
            startMinute: booking.startMinute,
            durationMinutes: booking.durationMinutes,
            doctorId: booking.doctorId,
            chairId: booking.chairId,
            patientId: booking.userId,
            priceCents: booking.priceCents,
            maxUnpaid,
            now: NOW,
            startsAt: clinicInstant(env, booking.appointmentDate, booking.startMinute),
          }),
        ]
      : []),
    insertBooking(db, booking),
    insertClaims(db, booking.id, claim),
  ]);
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
  it('claims every cell of a booking on its doctor, its chair and its patient', async () => {
    const booking = bookingOf(await newPatient(), {
      appointmentDate: '2026-12-02',
      treatmentId: 'cavity-filling',
      treatment: 'Cavity Filling',
      startMinute: 570,
      durationMinutes: 60,
    });
    await book(booking);
    expect(await claimsOf(booking.id)).toEqual([
      ...[38, 39, 40, 41].map((cell) => ({ resource: 'chair:chair-1', cell })),
      ...[38, 39, 40, 41].map((cell) => ({ resource: 'doctor:dr-sofia-alvarez', cell })),
      ...[38, 39, 40, 41].map((cell) => ({ resource: `patient:${booking.userId}`, cell })),
    ]);
  });

  it('refuses a booking that overlaps another on its doctor or its chair by one cell, and stores nothing of it', async () => {
    const [first, second] = [await newPatient(), await newPatient()];
    await book(
      bookingOf(first, {
        appointmentDate: '2026-12-03',
        startMinute: 540,
        durationMinutes: 60,
        treatmentId: 'cavity-filling',
        treatment: 'Cavity Filling',
      }),
    );
    // The same doctor from 09.45, another chair: the placement check names the rule.
    const sameDoctor = bookingOf(second, { appointmentDate: '2026-12-03', startMinute: 585, chairId: 'chair-2' });
    expect(brokenRule(await failureOf(book(sameDoctor)))).toBe('doctor_taken');
    // Without the check, the claims' primary key refuses it all the same.
    const error = await failureOf(book(sameDoctor, 3, false));
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
    expect(brokenRule(await failureOf(book(sameChair)))).toBe('chair_taken');
    expect(violates(await failureOf(book(sameChair, 3, false)), ONE_CLAIM_PER_CELL)).toBe(true);
    expect(await bookingById(db, sameDoctor.id, NOW)).toBeNull();
    expect(await claimsOf(sameChair.id)).toEqual([]);
    // Right after it, on both: fine.
    await book(bookingOf(second, { appointmentDate: '2026-12-03', startMinute: 600 }));
  });

  it('refuses a patient in two places at once: another doctor and chair at an overlapping time', async () => {
    const patient = await newPatient();
    await book(bookingOf(patient, { appointmentDate: '2026-12-15', startMinute: 540 }));
    const elsewhere = bookingOf(patient, {
      appointmentDate: '2026-12-15',
      startMinute: 540,
      treatmentId: 'teeth-whitening',
      treatment: 'Teeth Whitening',
      doctorId: 'dr-amelia-hart',
      chairId: 'chair-2',
      durationMinutes: 60,
    });
    expect(brokenRule(await failureOf(book(elsewhere)))).toBe('patient_busy');
    expect(violates(await failureOf(book(elsewhere, 3, false)), ONE_CLAIM_PER_CELL)).toBe(true);
    expect(await bookingById(db, elsewhere.id, NOW)).toBeNull();
    // Right after the first visit ends: fine.
    await book({ ...elsewhere, id: crypto.randomUUID(), startMinute: 570 });
  });

  it('refuses, inside the batch, a time outside the clinic’s hours, a closed day, a doctor’s day off or a missing chair', async () => {
    const patient = await newPatient();
    const rule = async (fields: Partial<NewBookingRow>, before: string[] = []) => {
      for (const sql of before) await db.prepare(sql).run();
      return brokenRule(await failureOf(book(bookingOf(patient, { appointmentDate: '2026-12-16', ...fields }))));
    };
    expect(await rule({ startMinute: 1005, durationMinutes: 30 })).toBe('clinic_closed');
    expect(
      await rule({}, [
        "INSERT INTO closures (id, from_date, to_date, reason) VALUES ('c-1216', '2026-12-16', '2026-12-16', 'Inventory')",
      ]),
    ).toBe('clinic_closed');
    await db.prepare("DELETE FROM closures WHERE id = 'c-1216'").run();
    expect(
      await rule({}, [
        "INSERT INTO closures (id, from_date, to_date, reason, doctor_id) VALUES ('c-sofia', '2026-12-16', '2026-12-16', 'Course', 'dr-sofia-alvarez')",
      ]),
    ).toBe('doctor_unavailable');
    await db.prepare("DELETE FROM closures WHERE id = 'c-sofia'").run();
    // The cleaning is general dentistry: the cosmetic dentist may not do it.
    expect(await rule({ doctorId: 'dr-amelia-hart' })).toBe('doctor_unavailable');
    expect(await rule({ chairId: 'no-such-chair' })).toBe('chair_missing');
    expect(await rule({ appointmentDate: '2026-11-21', startMinute: 540 })).toBe('started');
    await book(bookingOf(patient, { appointmentDate: '2026-12-16' }));
  });

  it('refuses a patient a second booking of one treatment on one date as ONE_BOOKING_PER_PATIENT', async () => {
    const patient = await newPatient();
    await book(bookingOf(patient, { appointmentDate: '2026-12-04' }));
    const error = await failureOf(
      book(bookingOf(patient, { appointmentDate: '2026-12-04', startMinute: 660, chairId: 'chair-2' })),
    );
    expect(violates(error, ONE_BOOKING_PER_PATIENT)).toBe(true);
    expect(violates(error, ONE_CLAIM_PER_CELL)).toBe(false);
  });

  it('releases, in the same batch, an unpaid booking whose hold ended and that holds a cell, and drops its claims', async () => {
    const [late, next] = [await newPatient(), await newPatient()];
    const lapsed = bookingOf(late, { appointmentDate: '2026-12-05', holdUntil: '2026-11-21T14:00:00.000Z' });
    await book(lapsed);
    const taking = bookingOf(next, {
      appointmentDate: '2026-12-05',
      startMinute: 555,
      durationMinutes: 30,
      chairId: 'chair-2',
    });
    await book(taking);
    expect(await bookingById(db, lapsed.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await claimsOf(lapsed.id)).toEqual([]);
    expect(await claimsOf(taking.id)).toHaveLength(6);
  });

  it('inserts nothing, claims included, for a patient at the unpaid limit (open offers count), but a free treatment still books', async () => {
    await db
      .prepare(
        "INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, position) VALUES ('free-visit', 'Free Visit', 0, 30, 'general-dentistry', 99)",
      )
      .run();
    const patient = await newPatient();
    await book(bookingOf(patient, { appointmentDate: '2026-12-06' }), 1);
    const refused = bookingOf(patient, { appointmentDate: '2026-12-07' });
    expect(brokenRule(await failureOf(book(refused, 1)))).toBe('hold_limit');
    expect(await claimsOf(refused.id)).toEqual([]);
    // An open waitlist offer holds a time as an unpaid booking does.
    await db.batch([
      db
        .prepare(
          "INSERT INTO waitlist (id, user_id, treatment_id, from_date, to_date, created_at) VALUES ('w-limit', ?1, 'teeth-cleaning', '2026-12-08', '2026-12-08', ?2)",
        )
        .bind(patient.id, NOW.toISOString()),
      db
        .prepare(
          `INSERT INTO waitlist_offers (id, entry_id, treatment_id, day, start_minute, duration_minutes, slot, doctor_id, chair_id, expires_at, created_at)
           VALUES ('o-limit', 'w-limit', 'teeth-cleaning', '2026-12-08', 600, 30, '10.00 AM - 10.30 AM', 'dr-sofia-alvarez', 'chair-2', ?1, ?2)`,
        )
        .bind(LATER, NOW.toISOString()),
    ]);
    expect(brokenRule(await failureOf(book(bookingOf(patient, { appointmentDate: '2026-12-09' }), 2)))).toBe(
      'hold_limit',
    );
    const free = bookingOf(patient, {
      appointmentDate: '2026-12-07',
      treatmentId: 'free-visit',
      treatment: 'Free Visit',
      priceCents: 0,
      holdUntil: null,
    });
    await book(free, 1);
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
    expect(brokenRule(await failureOf(book(booking)))).toBe('treatment_inactive');
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
    for (const booking of [later, earlier, lapsed]) await book(booking);

    const { results: rows } = await bookingsOf(db, patient.id, NOW, '2026-11-21').all<BookingRow>();
    expect(rows.map((row) => row.id)).toEqual([earlier.id, later.id]);
    // The policy's deadlines: free cancellation 48 hours before, rescheduling 12 hours before.
    expect(
      toBooking(rows[0]!, env, {
        freeCancellationHours: 48,
        rescheduleCutoffHours: 12,
        noShowFee: 0,
        lateCancelFee: 0,
      }),
    ).toEqual({
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
      payAtClinic: false,
      paymentRule: 'full',
      deposit: null,
      noShowFee: 0,
      lateCancelFee: 0,
      balanceDue: 0,
      durationMinutes: 30,
      doctor: {
        _id: 'dr-sofia-alvarez',
        name: 'Dr. Sofia Alvarez',
        image: '/api/images/doctors/seed-dr-sofia-alvarez.png',
      },
      status: 'active',
      cancelNote: null,
      freeCancellationUntil: '2026-12-07T14:00:00.000Z',
      rescheduleUntil: '2026-12-09T02:00:00.000Z',
      familyVisitId: null,
      formsToFill: 1,
    });
  });

  it("reads a family's bookings through the index on each member's user id, never scanning all bookings", async () => {
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
    await book(booking);
    await db.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(booking.id).run();
    const cancel = (evenPaid: boolean) =>
      db.batch([
        cancelActiveBooking(db, booking.id, { evenPaid, by: evenPaid ? 'admin' : 'patient' }),
        freeClaimsOfEndedBooking(db, booking.id),
      ]);
    const [kept] = await cancel(false);
    expect(kept?.meta.changes).toBe(0);
    expect(await claimsOf(booking.id)).toHaveLength(6);
    const [cancelled, freed] = await cancel(true);
    expect([cancelled?.meta.changes, freed?.meta.changes]).toEqual([1, 6]);
    expect(await bookingById(db, booking.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'admin' });
    expect((await cancel(true))[0]?.meta.changes).toBe(0);
  });

  it('sweeps exactly the unpaid bookings whose hold ended by then, with their claims, and says a released one is released', async () => {
    const patient = await newPatient();
    const ends = (hour: string) => `2026-11-21T${hour}:00:00.000Z`;
    const due = bookingOf(patient, { appointmentDate: '2026-12-13', holdUntil: ends('14') });
    const notYet = bookingOf(patient, { appointmentDate: '2026-12-14', holdUntil: ends('16') });
    for (const booking of [due, notYet]) await book(booking);
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });

    await db.batch(releaseLapsedHolds(db, NOW));
    expect(await bookingById(db, due.id, NOW)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await claimsOf(due.id)).toEqual([]);
    expect(await bookingById(db, notYet.id, NOW)).toMatchObject({ status: 'active', expired: 0 });
    expect(await claimsOf(notYet.id)).toHaveLength(6);
    expect(await bookingToPay(db, 'id', due.id, NOW)).toMatchObject({ released: 1 });
    expect(await bookingToPay(db, 'id', notYet.id, NOW)).toMatchObject({ released: 0, paid: 0, due_cents: 8000 });
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
      await book(booking, null, false);
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
    const every = (days: number[], start: number, end: number) => days.map((day) => [day, start, end] as const);
    const allWeek = [0, 1, 2, 3, 4, 5, 6];
    const sofia = {
      kind: 'doctor',
      doctorId: 'dr-sofia-alvarez',
      hours: every(allWeek, 540, 1020),
      specialtyId: null,
    } as const;
    expect(await stranded(sofia)).toEqual([]);
    // Tuesdays off (Nov 24 is a Tuesday).
    expect(await stranded({ ...sofia, hours: every([0, 1, 3, 4, 5, 6], 540, 1020) })).toEqual([
      '2026-11-24 Cavity Filling',
    ]);
    expect(await stranded({ ...sofia, hours: every(allWeek, 660, 1020) })).toEqual([]);
    expect(await stranded({ ...sofia, hours: every(allWeek, 540, 1005) })).toEqual(['2026-11-24 Cavity Filling']);
    // Hours of their own on Tuesdays only: mornings.
    expect(await stranded({ ...sofia, hours: [...every([0, 1, 3, 4, 5, 6], 540, 1020), [2, 540, 780]] })).toEqual([
      '2026-11-24 Cavity Filling',
    ]);
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
    const [found, marked] = await db.batch([
      strandedBookings(env, change, NOW),
      markStranded(db, change, strandClock(env, NOW)),
    ]);
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
      startsAt: new Date('2026-12-20T15:00:00.000Z'),
      ...to,
    },
    at: NOW.toISOString(),
  });
  const run = (move: MoveRow, userId: string) => {
    const claim = {
      day: move.to.appointmentDate,
      resources: [doctorResource(move.to.doctorId), chairResource(move.to.chairId), patientResource(userId)],
      ...cellsOf(move.to.startMinute, move.to.durationMinutes),
    };
    return db.batch([
      dropDeadClaims(db, move.to.appointmentDate, NOW),
      checkPlacement(db, {
        treatmentId: 'teeth-cleaning',
        day: move.to.appointmentDate,
        startMinute: move.to.startMinute,
        durationMinutes: move.to.durationMinutes,
        doctorId: move.to.doctorId,
        chairId: move.to.chairId,
        patientId: userId,
        priceCents: 8000,
        maxUnpaid: null,
        now: NOW,
        startsAt: clinicInstant(env, move.to.appointmentDate, move.to.startMinute),
        moving: move.from,
      }),
      ...moveStatements(db, move),
      insertClaims(db, move.to.id, claim),
    ]);
  };
  const statusOf = (id: string) => db.prepare('SELECT status, moved_to FROM bookings WHERE id = ?1').bind(id).first();

  it('moves the booking, its claims and its patient to the new time, with its calendar UID and a higher version', async () => {
    const booking = bookingOf(await newPatient(), { appointmentDate: '2026-12-19' });
    await book(booking);
    const move = moveOf(booking, 0);
    await run(move, booking.userId);
    expect(await statusOf(booking.id)).toEqual({ status: 'moved', moved_to: move.to.id });
    expect(await claimsOf(booking.id)).toEqual([]);
    expect(await claimsOf(move.to.id)).toHaveLength(6);
    expect(
      await db
        .prepare('SELECT user_id, price_cents, paid, calendar_uid, version FROM bookings WHERE id = ?1')
        .bind(move.to.id)
        .first(),
    ).toEqual({ user_id: booking.userId, price_cents: 8000, paid: 0, calendar_uid: booking.id, version: 2 });
  });

  it('carries the start a paid booking was paid for, never later than its new start', async () => {
    const booking = bookingOf(await newPatient(), { appointmentDate: '2026-12-23' });
    await book(booking);
    await db
      .prepare("UPDATE bookings SET paid = 1, paid_start_at = '2026-12-23T14:00:00.000Z' WHERE id = ?1")
      .bind(booking.id)
      .run();
    const later = moveOf(booking, 1, { appointmentDate: '2026-12-28', startsAt: new Date('2026-12-28T15:00:00.000Z') });
    await run(later, booking.userId);
    const paidFor = (id: string) =>
      db.prepare('SELECT paid_start_at FROM bookings WHERE id = ?1').bind(id).first('paid_start_at');
    expect(await paidFor(later.to.id)).toBe('2026-12-23T14:00:00.000Z');
    const moved = { ...booking, id: later.to.id };
    const earlier = moveOf(moved, 1, { appointmentDate: '2026-12-21', startsAt: new Date('2026-12-21T15:00:00.000Z') });
    await run(earlier, booking.userId);
    expect(await paidFor(earlier.to.id)).toBe('2026-12-21T15:00:00.000Z');
  });

  it('does nothing when the booking is no longer as it was read (paid meanwhile, or moved already)', async () => {
    const booking = bookingOf(await newPatient(), { appointmentDate: '2026-12-21' });
    await book(booking);
    await db.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(booking.id).run();
    const stale = moveOf(booking, 0, { appointmentDate: '2026-12-22' });
    expect(brokenRule(await failureOf(run(stale, booking.userId)))).toBe('booking_changed');
    expect(await statusOf(booking.id)).toEqual({ status: 'active', moved_to: null });
    expect(await claimsOf(booking.id)).toHaveLength(6);
    expect(await db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(stale.to.id).first()).toBeNull();

    const first = moveOf(booking, 1, { appointmentDate: '2026-12-22' });
    await run(first, booking.userId);
    const second = moveOf(booking, 1, { appointmentDate: '2026-12-22', startMinute: 660, slot: '11.00 AM - 11.30 AM' });
    expect(brokenRule(await failureOf(run(second, booking.userId)))).toBe('booking_changed');
    expect(await statusOf(booking.id)).toEqual({ status: 'moved', moved_to: first.to.id });
    expect(await db.prepare('SELECT id FROM bookings WHERE id = ?1').bind(second.to.id).first()).toBeNull();
  });
});
