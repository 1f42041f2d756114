/**
 * The front desk's actions on bookings (issue 15): rescheduling (by the patient until the clinic's
 * cutoff, by an admin at any time), attendance, cancelling for a patient with a reason, booking by
 * phone, and finding a patient. Each change is one D1 batch.
 */
import {
  Attendance,
  type AttendanceSaved,
  CancelForPatient,
  type PhoneBooked,
  PhoneBooking,
  Reschedule,
  type Rescheduled,
} from '../../../contract/bookings.ts';
import { type PatientMatch, PatientSearchQuery } from '../../../contract/users.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { queueReleaseMails } from '../messages/data/outbox.ts';
import { bookingRescheduled } from '../messages/messages.ts';
import { requireAdmin, requireUser } from '../people/auth.ts';
import { insertPhonePatient, searchUsers, USER_EMAIL, userByEmail, userById } from '../people/data/users.ts';
import { clinicInstant, displayDate } from '../platform/clinic-time.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readJson, readQuery } from '../platform/http.ts';
import { spend } from '../platform/rate-limit.ts';
import { alreadyBooked, bookFor, bookingFor, cancel, planStart, TAKEN } from './bookings.ts';
import {
  bookingById,
  bookingName,
  type MoveRow,
  moveStatements,
  ONE_BOOKING_PER_PATIENT,
  releaseLapsedHoldsInTheWay,
  setAttendance,
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
import { freePairs } from './schedule.ts';

type Params = { params: Record<string, string> };

const HOUR = 3_600_000;
const CHANGED = 'This booking was changed meanwhile (paid, cancelled or moved); please reload and try again';

/**
 * POST /api/bookings/:id/reschedule: moves an active booking to another free start of its
 * treatment, under the rules of a new booking (hours, closures, specialty, a doctor and a chair free
 * for the whole length, the horizon, not started; its own time does not count as taken). Its owner
 * may do it until the clinic's cutoff before the start, an admin at any time. One batch per
 * (doctor, chair) pair tried: the old booking marked moved (only while it is as it was read), its
 * claims freed, the new booking with the same patient, price and payment, its claims, the patient's
 * mail naming both times and the new time's reminders (the old time's are not sent: the cron
 * re-reads the booking); the old time is then offered to the waitlist. Two moves into
 * one free time: the claims' primary key lets one batch through; the other is 409 and keeps its booking.
 */
export async function rescheduleBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = await readJson(request, Reschedule);
  const old = await bookingFor(env, user, request.params.id ?? '');
  const now = new Date();
  const oldStart = clinicInstant(env, old.appointment_date, old.start_minute);
  if (user.role !== 'admin') {
    const { rescheduleCutoffHours: cutoff } = await readPolicy(env.DB);
    if (now.getTime() > oldStart.getTime() - cutoff * HOUR) {
      throw new HttpError(
        409,
        `Appointments can be rescheduled online until ${cutoff} hour${cutoff === 1 ? '' : 's'} before they start; please call the clinic`,
      );
    }
  }
  const { isoDate, day, treatment, startMinute, cells } = await planStart(
    env,
    { treatment: old.treatment_id, ...body },
    now,
    old.id,
  );
  if (isoDate === old.appointment_date && startMinute === old.start_minute) {
    throw new HttpError(400, 'This is the time the appointment already has; choose another one');
  }
  // An unpaid booking keeps its payment deadline (moving it never buys time to pay), and is held no
  // later than the hold rules allow for its new start.
  const holdUntil =
    old.paid === 1 || old.price_cents === 0
      ? null
      : new Date(
          Math.min(
            Date.parse(old.hold_until ?? now.toISOString()),
            holdEnd(now, clinicInstant(env, isoDate, startMinute), holdRules(env)).getTime(),
          ),
        ).toISOString();

  for (const pair of freePairs(day, treatment, startMinute)) {
    const move: MoveRow = {
      from: { id: old.id, paid: old.paid, paymentIntentId: old.payment_intent_id },
      to: {
        id: crypto.randomUUID(),
        appointmentDate: isoDate,
        slot: body.slot,
        startMinute,
        durationMinutes: treatment.duration_minutes,
        doctorId: pair.doctorId,
        chairId: pair.chairId,
        holdUntil,
      },
      at: now.toISOString(),
    };
    const resources = [doctorResource(pair.doctorId), chairResource(pair.chairId)] as const;
    const release = releaseLapsedHoldsInTheWay(
      env.DB,
      {
        priceCents: old.price_cents,
        userId: old.user_id,
        createdAt: move.at,
        treatmentId: old.treatment_id,
        appointmentDate: isoDate,
      },
      null,
      { resources, ...cells },
    );
    const ahead = [...release, queueReleaseMails(env.DB, now)];
    const statements = [
      ...ahead,
      ...moveStatements(
        env.DB,
        move,
        freeClaimsOfEndedBooking(env.DB, old.id),
        dropDeadClaims(env.DB, isoDate, now),
        auditEntry(
          env.DB,
          {
            actor: user,
            action: 'booking.rescheduled',
            target: { type: 'booking', id: old.id, name: bookingName(old.id) },
            before: { appointmentDate: old.appointment_date, slot: old.slot },
            after: { appointmentDate: isoDate, slot: body.slot, movedTo: move.to.id },
          },
          IF_CHANGED,
        ),
      ),
      insertClaims(env.DB, { bookingId: move.to.id, day: isoDate, resources, ...cells }),
      ...bookingRescheduled(
        env,
        {
          from: { date: old.appointment_date, startMinute: old.start_minute },
          to: { id: move.to.id, appointmentDate: isoDate, startMinute },
        },
        now,
      ),
    ];
    let moved: number;
    try {
      const results = await env.DB.batch(statements);
      moved = results[ahead.length]?.meta.changes ?? 0;
    } catch (error) {
      if (violates(error, ONE_CLAIM_PER_CELL)) continue;
      if (violates(error, ONE_BOOKING_PER_PATIENT)) throw alreadyBooked(isoDate, user.id !== old.user_id);
      throw error;
    }
    if (moved === 0) throw new HttpError(409, CHANGED);
    return json({
      acknowledged: true,
      insertedId: move.to.id,
      message: `Moved to ${displayDate(isoDate)}, ${body.slot}`,
    } satisfies Rescheduled);
  }
  throw new HttpError(409, TAKEN);
}

/**
 * POST /api/bookings/:id/attendance (admin): marks a booking attended or missed, once it has started
 * on the clinic's clock. A booking already marked may be marked the other way (a correction).
 */
export async function markAttendance(request: Request & Params, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const { status } = await readJson(request, Attendance);
  const now = new Date();
  const row = await bookingById(env.DB, request.params.id ?? '', now);
  if (!row) throw new HttpError(404, 'No such booking');
  if (row.status === 'moved') throw new HttpError(409, 'This booking was moved to another time; mark that one');
  if (row.status === 'cancelled' || row.expired) throw new HttpError(409, 'This booking was cancelled');
  if (clinicInstant(env, row.appointment_date, row.start_minute).getTime() > now.getTime()) {
    throw new HttpError(409, 'Attendance can be marked once the appointment has started');
  }
  const [{ meta }] = (await env.DB.batch([
    setAttendance(env.DB, row.id, status, now.toISOString()),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: status === 'attended' ? 'booking.attended' : 'booking.no_show',
        target: { type: 'booking', id: row.id, name: bookingName(row.id) },
        before: { status: row.status },
        after: { status },
      },
      IF_CHANGED,
    ),
  ])) as [D1Result];
  if (meta.changes === 0) throw new HttpError(409, CHANGED);
  return json({
    acknowledged: true,
    modifiedCount: meta.changes,
    message: `${row.patient_name} marked as ${status === 'attended' ? 'attended' : 'a no-show'}`,
  } satisfies AttendanceSaved);
}

/**
 * POST /api/bookings/:id/cancel (admin): cancels an active booking for its patient, with a reason
 * the patient sees in My Appointments and in the cancellation mail; a paid one is refunded unless
 * `refund` is false. The same cancellation as DELETE /api/bookings/:id (bookings.ts cancel).
 */
export async function cancelBookingForPatient(request: Request & Params, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  const { reason, refund } = await readJson(request, CancelForPatient);
  const row = await bookingFor(env, admin, request.params.id ?? '');
  const cancelled = await cancel(env, admin, row, { reason, refund });
  if (cancelled.modifiedCount === 0) throw new HttpError(409, CHANGED);
  return json(cancelled);
}

const PATIENT_EXISTS = 'A patient with this email already exists; find them by name or email and book for them';

/**
 * POST /api/phone-bookings (admin): books for an existing patient or a new one, under the rules of a
 * patient's own booking (the unpaid limit, one per treatment per date, the horizon, a free doctor and
 * chair). A new patient's record (no password; claimed by signing up with that email and verifying
 * it) is inserted in the booking's own batch: a booking refused by a constraint (the time taken
 * meanwhile) leaves no record.
 */
export async function bookByPhone(request: Request, env: Env): Promise<Response> {
  const admin = await requireAdmin(request, env);
  await spend(env.BOOKING_LIMITER, admin.id, 'booking requests');
  const body = await readJson(request, PhoneBooking);
  let patient: { id: string; name: string; email: string };
  const before: D1PreparedStatement[] = [];
  if (body.patientId !== undefined) {
    const found = await userById(env.DB, body.patientId);
    if (!found) throw new HttpError(404, 'No such patient');
    patient = found;
  } else if (body.patient) {
    if (await userByEmail(env.DB, body.patient.email)) throw new HttpError(409, PATIENT_EXISTS);
    patient = { id: crypto.randomUUID(), ...body.patient };
    before.push(insertPhonePatient(env.DB, patient));
  } else {
    throw new HttpError(400, 'Send either patientId (an existing patient) or patient (a new one)');
  }
  let id: string;
  try {
    const booked = patient;
    id = await bookFor(env, patient, body, {
      byClinic: true,
      before,
      audit: (bookingId) =>
        auditEntry(
          env.DB,
          {
            actor: admin,
            action: 'booking.booked_by_phone',
            target: { type: 'booking', id: bookingId, name: bookingName(bookingId) },
            after: {
              patientId: booked.id,
              email: booked.email,
              newPatient: body.patientId === undefined,
              treatment: body.treatment,
              appointmentDate: body.appointmentDate,
              slot: body.slot,
            },
          },
          IF_CHANGED,
        ),
    });
  } catch (error) {
    if (violates(error, USER_EMAIL)) throw new HttpError(409, PATIENT_EXISTS);
    throw error;
  }
  return json(
    {
      acknowledged: true,
      insertedId: id,
      patientId: patient.id,
      message: `Booked for ${patient.name}`,
    } satisfies PhoneBooked,
    201,
  );
}

/** GET /api/users/search?q= (admin): up to 20 users whose name or email contains q. */
export async function searchPatients(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { q } = readQuery(request, PatientSearchQuery);
  const rows = await searchUsers(env.DB, q);
  return json(
    rows.map(
      (row): PatientMatch => ({
        _id: row.id,
        name: row.name,
        email: row.email,
        phone: row.phone ?? '',
        noShows: row.no_shows,
        hasAccount: row.has_account === 1,
      }),
    ),
  );
}
