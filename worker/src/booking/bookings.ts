import {
  type Booking,
  type BookingCancelled,
  type BookingCreated,
  BookingsQuery,
  CancelQuery,
  NewBooking,
} from '../../../contract/bookings.ts';
import { slotLabel } from '../../../contract/slot-label.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { type TreatmentRow, treatmentState } from '../clinic/data/treatments.ts';
import { insideWindowMessage } from '../clinic/policy.ts';
import { messageSettings } from '../messages/data/message-settings.ts';
import { queueReleaseMails } from '../messages/data/outbox.ts';
import { bookingCancelled, bookingConfirmed } from '../messages/messages.ts';
import { refundOfCancelledBooking } from '../money/refunds.ts';
import { requireUser, requireVerifiedUser } from '../people/auth.ts';
import { type User, userByEmail } from '../people/data/users.ts';
import {
  bookingWindowProblem,
  clinicInstant,
  clinicNow,
  displayDate,
  firstBookableMinute,
  isWholeInterval,
  parseClinicDate,
} from '../platform/clinic-time.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readJson, readQuery } from '../platform/http.ts';
import { spend } from '../platform/rate-limit.ts';
import { calendarFile } from './calendar.ts';
import {
  type BookingRow,
  bookingById,
  bookingName,
  bookingsOf,
  cancelActiveBooking,
  insertBooking,
  type NewBookingRow,
  ONE_BOOKING_PER_PATIENT,
  paidFlagOf,
  releaseLapsedHoldsInTheWay,
  toBooking,
} from './data/bookings.ts';
import {
  chairResource,
  doctorResource,
  dropDeadClaims,
  freeClaimsOfEndedBooking,
  insertClaims,
  ONE_CLAIM_PER_CELL,
} from './data/claims.ts';
import { holdEnd, holdRules } from './holds.ts';
import { cellsOf, type Day, freePairs, gridStarts, readDay } from './schedule.ts';

type Params = { params: Record<string, string> };

export const unpaidLimitMessage = (limit: number, byClinic = false) =>
  `${byClinic ? 'This patient already has' : 'You already have'} ${limit} unpaid appointment${limit === 1 ? '' : 's'}; pay or cancel one before booking another`;
export const TAKEN = 'This slot was just booked; please choose another one';
const notOffered = (name: string) => `${name} is no longer offered; please choose another treatment`;

export interface StartPlan {
  isoDate: string;
  day: Day;
  treatment: TreatmentRow;
  startMinute: number;
  cells: { firstCell: number; lastCell: number };
}

/**
 * Where a booking of `wanted.treatment` (its id or name) may go at `wanted.slot` on
 * `wanted.appointmentDate`: the date inside the horizon, the treatment offered, the clinic open, the
 * slot one of the day's starts for its length that has not started and exists on the clock. 400/404
 * with the reason otherwise. Who is free comes after: freePairs(plan.day, …). `ignoreBooking`: a
 * booking being moved, whose own time does not count as taken.
 */
export async function planStart(
  env: Env,
  wanted: { treatment: string; appointmentDate: string; slot: string },
  now: Date,
  ignoreBooking?: string,
): Promise<StartPlan> {
  const isoDate = parseClinicDate(wanted.appointmentDate, 'appointmentDate');
  const problem = bookingWindowProblem(env, isoDate, now);
  if (problem) throw new HttpError(400, problem);

  const day = await readDay(env, isoDate, now, ignoreBooking);
  const treatment = day.treatments.find((t) => t.id === wanted.treatment || t.name === wanted.treatment);
  if (!treatment) throw new HttpError(404, `No such treatment: ${wanted.treatment}`);
  if (treatment.active !== 1) throw new HttpError(400, notOffered(treatment.name));
  if (!day.hours) throw new HttpError(400, `The clinic is closed on ${displayDate(isoDate)}`);
  const minutes = treatment.duration_minutes;
  const startMinute = gridStarts(day, minutes).find((start) => slotLabel(start, minutes) === wanted.slot);
  if (startMinute === undefined) throw new HttpError(400, `${treatment.name} has no slot "${wanted.slot}"`);
  if (startMinute < firstBookableMinute(env, isoDate, now)) throw new HttpError(400, 'This slot has already started');
  if (!day.regular && !isWholeInterval(env, isoDate, startMinute, startMinute + minutes)) {
    throw new HttpError(
      400,
      `${treatment.name} has no slot "${wanted.slot}" on ${displayDate(isoDate)}: the clocks change that night`,
    );
  }
  return { isoDate, day, treatment, startMinute, cells: cellsOf(startMinute, minutes) };
}

/** The one-booking-per-treatment-per-date refusal, to the patient or (`byClinic`) to the front desk. */
export const alreadyBooked = (isoDate: string, byClinic = false) =>
  new HttpError(
    409,
    `${byClinic ? 'This patient already has' : 'You already have'} a booking on ${displayDate(isoDate)}`,
  );

/**
 * Books a free start for `patient` with a doctor of the treatment's specialty and a chair that are
 * both free for its whole length, under every rule of a patient's own booking; answers its id.
 * `byClinic`: the front desk books (the refusals speak of "this patient"); `before`: statements
 * that go first in the booking's batch (a new patient's record).
 */
export async function bookFor(
  env: Env,
  patient: Pick<User, 'id' | 'name' | 'email'>,
  wanted: { treatment: string; appointmentDate: string; slot: string; phone: string },
  {
    byClinic = false,
    before = [],
    audit,
  }: {
    byClinic?: boolean;
    before?: D1PreparedStatement[];
    /** The booking's audit row, put right after its insert (so IF_CHANGED sees the insert). */
    audit?: (bookingId: string) => D1PreparedStatement;
  } = {},
): Promise<string> {
  const now = new Date();
  const { isoDate, day, treatment, startMinute, cells } = await planStart(env, wanted, now);
  const rules = holdRules(env);
  // The free (doctor, chair) pairs, least loaded first. Each try is one batch: release the unpaid
  // bookings whose hold has ended and that stand in the way (on this doctor's or chair's cells, or
  // the patient's own booking of this treatment on this date) and drop their claims, insert the
  // booking while the patient is under the unpaid limit (counted in the statement), and claim its
  // cells. A cell claimed meanwhile fails the batch on the claims' primary key: the next pair.
  for (const pair of freePairs(day, treatment, startMinute)) {
    const booking: NewBookingRow = {
      id: crypto.randomUUID(),
      treatmentId: treatment.id,
      treatment: treatment.name,
      appointmentDate: isoDate,
      slot: wanted.slot,
      startMinute,
      durationMinutes: treatment.duration_minutes,
      doctorId: pair.doctorId,
      chairId: pair.chairId,
      userId: patient.id,
      patientName: patient.name,
      email: patient.email,
      phone: wanted.phone,
      priceCents: treatment.price_cents,
      createdAt: now.toISOString(),
      holdUntil:
        treatment.price_cents > 0 ? holdEnd(now, clinicInstant(env, isoDate, startMinute), rules).toISOString() : null,
    };
    const resources = [doctorResource(pair.doctorId), chairResource(pair.chairId)] as const;
    const ahead = [
      ...before,
      ...releaseLapsedHoldsInTheWay(env.DB, booking, rules.maxUnpaid, { resources, ...cells }),
      queueReleaseMails(env.DB, now),
      dropDeadClaims(env.DB, isoDate, now),
    ];
    const statements = [
      ...ahead,
      insertBooking(env.DB, booking, rules.maxUnpaid),
      ...(audit ? [audit(booking.id)] : []),
      insertClaims(env.DB, { bookingId: booking.id, day: isoDate, resources, ...cells }),
      ...bookingConfirmed(env, { id: booking.id, appointmentDate: isoDate, startMinute }, now),
    ];
    let inserted: number;
    try {
      const results = await env.DB.batch(statements);
      inserted = results[ahead.length]?.meta.changes ?? 0;
    } catch (error) {
      if (violates(error, ONE_CLAIM_PER_CELL)) continue;
      if (violates(error, ONE_BOOKING_PER_PATIENT)) throw alreadyBooked(isoDate, byClinic);
      throw error;
    }
    if (inserted === 0) {
      // Refused inside the statement: the treatment was withdrawn meanwhile, or the unpaid limit.
      const state = await treatmentState(env.DB, treatment.id);
      if (!state) throw new HttpError(404, `No such treatment: ${wanted.treatment}`);
      if (!state.active) throw new HttpError(400, notOffered(treatment.name));
      throw new HttpError(409, unpaidLimitMessage(rules.maxUnpaid, byClinic));
    }
    return booking.id;
  }
  throw new HttpError(409, TAKEN);
}

/** POST /api/bookings: books a free start for the signed-in patient (see bookFor). */
export async function createBooking(request: Request, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = await readJson(request, NewBooking);
  if (body.email !== undefined && body.email.trim().toLowerCase() !== user.email) {
    throw new HttpError(403, 'You can only book appointments for yourself');
  }
  const id = await bookFor(env, user, body);
  return json({ acknowledged: true, insertedId: id, message: 'Booking confirmed' } satisfies BookingCreated, 201);
}

/** GET /api/bookings?email=: a patient's upcoming and past bookings, by date and time. */
export async function listBookings(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const email = (readQuery(request, BookingsQuery).email ?? user.email).trim().toLowerCase();
  if (email !== user.email && user.role !== 'admin') {
    throw new HttpError(403, 'You can only see your own bookings');
  }
  // By user id (indexed), not by the email on the bookings (unindexed): the caller's own id, or, for
  // an admin asking for someone else, the id of the user holding that email (none: no bookings).
  const patientId = email === user.email ? user.id : (await userByEmail(env.DB, email))?.id;
  if (patientId === undefined) return json([] satisfies Booking[]);
  const now = new Date();
  return json((await bookingsOf(env.DB, patientId, now, clinicNow(env, now).date)).map((row) => toBooking(row, env)));
}

export const RELEASED_MESSAGE = 'This booking was released because it was not paid in time; please book again';

/**
 * An active booking that `user` may see: its owner's, or any for an admin (404 / 403 otherwise).
 * An unpaid booking whose hold has ended is released, swept or not yet: 410.
 */
export async function bookingFor(env: Env, user: User, id: string, ownerOnly = false): Promise<BookingRow> {
  const row = await bookingById(env.DB, id, new Date());
  if (!row || (row.status !== 'active' && row.cancel_reason !== 'unpaid')) throw new HttpError(404, 'No such booking');
  if (row.user_id !== user.id && (ownerOnly || user.role !== 'admin')) {
    throw new HttpError(403, 'This booking is not yours');
  }
  if (row.status !== 'active' || row.expired) throw new HttpError(410, RELEASED_MESSAGE);
  return row;
}

/** GET /api/bookings/:id: what the payment page loads. */
export async function getBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  return json(toBooking(await bookingFor(env, user, request.params.id ?? ''), env));
}

/**
 * DELETE /api/bookings/:id: cancels and frees the slot. The owner cancels before the start; a paid
 * booking only outside the clinic's cancellation policy window, refunded in full. An admin cancels
 * any, refunding a paid one unless `?refund=false`.
 */
export async function cancelBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const { refund } = readQuery(request, CancelQuery);
  const row = await bookingFor(env, user, request.params.id ?? '');
  return json(await cancel(env, user, row, { refund: refund !== 'false' }));
}

/**
 * Cancels `row` for `user` (its owner, or an admin for the patient): the one way a booking is
 * cancelled. The owner cancels before the start, a paid booking only outside the policy window
 * (refunded in full); an admin cancels any, refunding a paid one when `refund`, with `reason` (the
 * clinic's words, which the patient sees in My Appointments and the mail). One batch: the booking
 * cancelled, (an admin cancelling for a patient) the audit row, its claims freed, a paid booking's
 * refund asked, the patient's mail queued; its time is then offered to the waitlist.
 */
export async function cancel(
  env: Env,
  user: User,
  row: BookingRow,
  { refund: refundChosen = true, reason = null }: { refund?: boolean; reason?: string | null } = {},
): Promise<BookingCancelled> {
  const byAdmin = user.role === 'admin';
  let evenPaid = byAdmin;
  let windowHours = 0;
  if (!byAdmin) {
    const untilStart = clinicInstant(env, row.appointment_date, row.start_minute).getTime() - Date.now();
    if (untilStart <= 0) throw new HttpError(409, 'This appointment has already started');
    windowHours = (await readPolicy(env.DB)).freeCancellationHours;
    evenPaid = untilStart >= windowHours * 3600_000;
    if (row.paid && !evenPaid) throw new HttpError(409, insideWindowMessage(windowHours));
  }
  // The paid check holds in the write too: a payment landing after the read, inside the window,
  // keeps the booking.
  const by = row.user_id === user.id ? 'patient' : 'admin';
  const note = by === 'admin' ? reason : null;
  const refund = byAdmin && !refundChosen ? null : refundOfCancelledBooking(env, row.id, user);
  const head = [
    cancelActiveBooking(env.DB, row.id, { evenPaid, by, note }),
    ...(by === 'admin'
      ? [
          auditEntry(
            env.DB,
            {
              actor: user,
              action: 'booking.cancelled',
              target: { type: 'booking', id: row.id, name: bookingName(row.id) },
              before: { status: 'active', paid: row.paid === 1 },
              after: { status: 'cancelled', cancelReason: by, ...(note ? { cancelNote: note } : {}) },
            },
            IF_CHANGED,
          ),
        ]
      : []),
    freeClaimsOfEndedBooking(env.DB, row.id),
  ];
  const refundStatements = refund?.statements ?? [];
  const results = await env.DB.batch([
    ...head,
    ...refundStatements,
    ...bookingCancelled(env, row.id, { by, reason: note }, new Date()),
  ]);
  const changes = results[0]?.meta.changes ?? 0;
  if (changes === 0 && !evenPaid && (await paidFlagOf(env.DB, row.id)) === 1) {
    throw new HttpError(409, insideWindowMessage(windowHours));
  }
  const refunded = (await refund?.settle(results.slice(head.length, head.length + refundStatements.length))) ?? null;
  return {
    acknowledged: true,
    modifiedCount: changes,
    message: 'Booking cancelled',
    ...(refunded ? { refund: refunded } : {}),
  };
}

/** GET /api/bookings/:id/calendar.ics: the appointment as a calendar event (owner only). */
export async function bookingCalendar(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const row = await bookingFor(env, user, request.params.id ?? '', true);
  const file = calendarFile(
    env,
    {
      bookingId: row.id,
      treatment: row.treatment,
      date: row.appointment_date,
      startMinute: row.start_minute,
      durationMinutes: row.duration_minutes,
      slot: row.slot,
      doctor: row.doctor_name,
      patientName: row.patient_name,
    },
    (await messageSettings(env.DB)).clinic_name,
  );
  return new Response(file, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="appointment-${row.appointment_date}.ics"`,
      'Cache-Control': 'no-store',
    },
  });
}
