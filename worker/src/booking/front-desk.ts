/**
 * The front desk's actions on bookings (issue 15): rescheduling (by the patient until the clinic's
 * cutoff, by an admin at any time), attendance, cancelling for a patient with a reason, booking by
 * phone, and finding a patient. Each change is one D1 batch.
 */

import type { Modified } from '../../../contract/answers.ts';
import type { AttendanceSaved, PhoneBooked, Rescheduled } from '../../../contract/bookings.ts';
import type { FamilyVisitBooked } from '../../../contract/family.ts';
import type { PatientMatch } from '../../../contract/users.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { callerOf } from '../people/auth.ts';
import {
  insertPhonePatient,
  isNoEmailAddress,
  noEmailAddress,
  searchUsers,
  USER_EMAIL,
  userByEmail,
  userById,
} from '../people/data/users.ts';
import { accountForDesk, membersOf } from '../people/family.ts';
import { clinicInstant, displayDate } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { bookingFor } from './bookings.ts';
import { type BookingRow, bookingById, deskNoteOf, latestOfMoves, shownEmail } from './data/bookings.ts';
import { cancel } from './engine/cancel.ts';
import { placeFamily } from './engine/family.ts';
import { annotate, attend, keep } from './engine/marks.ts';
import { move } from './engine/move.ts';
import { place } from './engine/place.ts';
import { CHANGED } from './engine/rules.ts';

const HOUR = 3_600_000;

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
export async function rescheduleBooking(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const input = inputOf(request, 'POST /bookings/:id/reschedule');
  const old = await bookingFor(env, user, input.params.id);
  const body = input.body;
  const now = clock().getTime();
  const oldStart = clinicInstant(env, old.appointment_date, old.start_minute);
  if (user.role !== 'admin') {
    const { rescheduleCutoffHours: cutoff } = await readPolicy(env.DB);
    if (now > oldStart.getTime() - cutoff * HOUR) {
      throw new HttpError(
        409,
        `Appointments can be rescheduled online until ${cutoff} hour${cutoff === 1 ? '' : 's'} before they start; please call the clinic`,
      );
    }
  }
  const moved = await move(env, user, old, body);
  return json({
    acknowledged: true,
    insertedId: moved.id,
    message: `Moved to ${displayDate(moved.isoDate)}, ${moved.slot}`,
  } satisfies Rescheduled);
}

/**
 * Refuses a mark or a note on a visit that is not as the front desk saw it, in plain words: moved
 * (and where to), cancelled, or changed since `version` (a write made offline that waited).
 */
async function checkUnchanged(env: Env, row: BookingRow & { expired: number }, version: number | undefined) {
  const waited = version !== undefined;
  const lead = waited ? 'While this waited, the visit was' : 'This visit was';
  if (row.status === 'moved') {
    const now = await latestOfMoves(env.DB, row.id);
    const where = now ? ` to ${displayDate(now.appointment_date)}, ${now.slot}` : ' to another time';
    throw new HttpError(409, `${lead} moved${where}: nothing was saved. Use the visit at its new time.`);
  }
  if (row.status === 'cancelled' || row.expired) throw new HttpError(409, `${lead} cancelled: nothing was saved.`);
  if (waited && row.version !== version) {
    throw new HttpError(409, 'While this waited, the visit changed: nothing was saved. Look at it again.');
  }
}

/**
 * POST /api/bookings/:id/attendance (admin): marks a booking attended or missed, once it has started
 * on the clinic's clock. A booking already marked may be marked the other way (a correction); the
 * same mark again changes nothing (an outbox's retry). With `version`, only that version is marked.
 */
export async function markAttendance(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'POST /bookings/:id/attendance');
  const { status, version, waiveFee } = input.body;
  const now = clock();
  const row = await bookingById(env.DB, input.params.id, now);
  if (!row) throw new HttpError(404, 'No such booking');
  await checkUnchanged(env, row, version);
  if (clinicInstant(env, row.appointment_date, row.start_minute).getTime() > now.getTime()) {
    throw new HttpError(409, 'Attendance can be marked once the appointment has started');
  }
  const marked = `${row.patient_name} marked as ${status === 'attended' ? 'attended' : 'a no-show'}`;
  if (row.status === status) {
    return json({ acknowledged: true, modifiedCount: 0, message: marked } satisfies AttendanceSaved);
  }
  const changes = await attend(env, admin, row, status, now, version ?? null, waiveFee);
  if (changes === 0) throw new HttpError(409, CHANGED);
  return json({ acknowledged: true, modifiedCount: changes, message: marked } satisfies AttendanceSaved);
}

/**
 * PUT /api/bookings/:id/note (admin): the front desk's note on a visit ("bring the X-rays"), shown
 * on the schedule; an empty note removes it. With `version`, only that version is annotated. Writing
 * the same note again changes nothing.
 */
export async function saveDeskNote(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /bookings/:id/note');
  const { note, version, noteVersion } = input.body;
  const row = await bookingById(env.DB, input.params.id, clock());
  if (!row) throw new HttpError(404, 'No such booking');
  await checkUnchanged(env, row, version);
  const changes = await annotate(env, admin, row, note || null, {
    version: version ?? null,
    noteVersion: noteVersion ?? null,
  });
  if (changes === 0 && noteVersion !== undefined) {
    // Written on an older note (say, while offline): the note saved meanwhile stays, and is shown.
    const current = await deskNoteOf(env.DB, row.id);
    if (current && current.version !== noteVersion) {
      throw new HttpError(
        409,
        current.note
          ? `Another note was saved meanwhile: “${current.note}”. Yours was not saved; read it and write again.`
          : 'The note was removed meanwhile. Yours was not saved; read the visit and write again.',
        {},
        { note: current.note, noteVersion: current.version },
      );
    }
  }
  return json({
    acknowledged: true,
    modifiedCount: changes,
    message: note ? `Note saved for ${row.patient_name}` : `Note removed for ${row.patient_name}`,
  } satisfies Modified);
}

/**
 * POST /api/bookings/:id/cancel (admin): cancels an active booking for its patient, with a reason
 * the patient sees in My Appointments and in the cancellation mail; a paid one is refunded unless
 * `refund` is false. The same cancellation as DELETE /api/bookings/:id (bookings.ts cancel).
 */
export async function cancelBookingForPatient(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'POST /bookings/:id/cancel');
  const { reason, refund } = input.body;
  const row = await bookingFor(env, admin, input.params.id);
  return json(await cancel(env, admin, row, { reason, refund }));
}

/**
 * POST /api/bookings/:id/keep (admin): the desk keeps a booking a schedule change left for review
 * as it is (it called the patient and the visit goes ahead): it leaves the review list.
 */
export async function keepBooking(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const row = await bookingFor(env, admin, inputOf(request, 'POST /bookings/:id/keep').params.id);
  if (row.needs_review === 0) throw new HttpError(409, 'This booking is not waiting for review');
  const changes = await keep(env, admin, row);
  if (changes === 0) throw new HttpError(409, CHANGED);
  return json({ acknowledged: true, modifiedCount: 1, message: 'Booking kept' } satisfies Modified);
}

const PATIENT_EXISTS = 'A patient with this email already exists; find them by name or email and book for them';

/**
 * POST /api/phone-bookings (admin): books for an existing patient or a new one, under the rules of a
 * patient's own booking (one per treatment per date, the horizon, a free doctor and chair, nobody in
 * two places), paid at the clinic unless the desk asks for online payment (then held like a
 * patient's own, within the unpaid limit unless the desk gives a reason to go past it). A new
 * patient's record (no password; claimed by signing up with that email and verifying it; without an
 * email, reached by phone and mailed nothing) is inserted in the booking's own batch: a booking
 * refused by a constraint (the time taken meanwhile) leaves no record.
 */
export async function bookByPhone(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  await spend(env.BOOKING_LIMITER, admin.id, 'booking requests');
  const body = inputOf(request, 'POST /phone-bookings').body;
  let patient: { id: string; name: string; email: string };
  const before: D1PreparedStatement[] = [];
  if (body.patientId !== undefined) {
    const found = await userById(env.DB, body.patientId);
    if (!found) throw new HttpError(404, 'No such patient');
    patient = found;
  } else if (body.patient) {
    const { email } = body.patient;
    if (email !== undefined && (await userByEmail(env.DB, email))) throw new HttpError(409, PATIENT_EXISTS);
    const id = crypto.randomUUID();
    patient = { id, name: body.patient.name, email: email ?? noEmailAddress(id) };
    before.push(insertPhonePatient(env.DB, { ...patient, language: body.patient.language }));
  } else {
    throw new HttpError(400, 'Send either patientId (an existing patient) or patient (a new one)');
  }
  let booked: { id: string; holdUntil: string | null };
  try {
    booked = await place(env, patient, body, {
      byClinic: true,
      before,
      payAtClinic: body.payment === 'clinic',
      ...(body.doctorId ? { doctorId: body.doctorId } : {}),
      ...(body.limitReason ? { maxUnpaid: null } : {}),
      audit: {
        actor: admin,
        action: 'booking.booked_by_phone',
        after: {
          patientId: patient.id,
          ...(isNoEmailAddress(patient.email) ? {} : { email: patient.email }),
          newPatient: body.patientId === undefined,
          treatment: body.treatment,
          appointmentDate: body.appointmentDate,
          ...(body.start === undefined ? { slot: body.slot } : { start: body.start }),
          payment: body.payment === 'clinic' ? 'at the clinic' : 'online',
          ...(body.limitReason ? { pastTheUnpaidLimit: body.limitReason } : {}),
        },
      },
    });
  } catch (error) {
    if (violates(error, USER_EMAIL)) throw new HttpError(409, PATIENT_EXISTS);
    throw error;
  }
  return json(
    {
      acknowledged: true,
      insertedId: booked.id,
      patientId: patient.id,
      message: `Booked for ${patient.name}`,
      payBy: booked.holdUntil,
    } satisfies PhoneBooked,
    201,
  );
}

/**
 * POST /api/phone-bookings/family (admin): the front desk books a family visit for an account, its
 * holder and dependants, all in one batch or nothing, each booking with its audit row; paid at the
 * clinic (no hold) unless the desk says the family pays online.
 */
export async function bookFamilyByPhone(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  await spend(env.BOOKING_LIMITER, admin.id, 'booking requests');
  const body = inputOf(request, 'POST /phone-bookings/family').body;
  const account = await accountForDesk(env, admin, body.accountId);
  const members = await membersOf(env, account, body.members);
  const visits = await placeFamily(env, members, body, {
    payAtClinic: body.payment === 'clinic',
    byPhone: {
      actor: admin,
      after: {
        familyVisit: true,
        accountId: account.id,
        payment: body.payment === 'clinic' ? 'at the clinic' : 'online',
      },
    },
  });
  return json(
    {
      acknowledged: true,
      insertedIds: visits.map((visit) => visit._id),
      visits,
      message: `Family visit booked for ${members.map((m) => m.patient.name).join(', ')}`,
    } satisfies FamilyVisitBooked,
    201,
  );
}

/** GET /api/users/search?q= (admin): up to 20 users whose name or email contains q. */
export async function searchPatients(request: Request, env: Env): Promise<Response> {
  const { q } = inputOf(request, 'GET /users/search').query;
  const rows = await searchUsers(env.DB, q);
  return json(
    rows.map(
      (row): PatientMatch => ({
        _id: row.id,
        name: row.name,
        email: shownEmail(row.email),
        phone: row.phone ?? '',
        noShows: row.no_shows,
        hasAccount: row.has_account === 1,
        family: JSON.parse(row.family) as PatientMatch['family'],
      }),
    ),
  );
}
