import type { Booking, BookingCreated, BookingHistory, PastBooking } from '../../../contract/bookings.ts';
import { HISTORY_PAGE_SIZE } from '../../../contract/pages.ts';
import { type PolicyRow, policyRow, readPolicy, toPolicy } from '../clinic/data/cancellation-policy.ts';
import { messageSettings } from '../clinic/data/message-settings.ts';
import { callerOf, verifiedCallerOf } from '../people/auth.ts';
import { type User, userByEmail, userLanguage } from '../people/data/users.ts';
import { patientFor } from '../people/family.ts';
import { clinicNow } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { languageOf, wordsFor } from '../platform/words.ts';
import { calendarAppointment, calendarFile } from './calendar.ts';
import { type BookingRow, bookingById, bookingsOf, pastBookingsOf, toBooking } from './data/bookings.ts';
import { cancel } from './engine/cancel.ts';
import { place } from './engine/place.ts';

/** POST /api/bookings: books a free start for the signed-in patient (the engine's place). */
export async function createBooking(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = inputOf(request, 'POST /bookings').body;
  if (body.email !== undefined && body.email.trim().toLowerCase() !== user.email) {
    throw new HttpError(403, 'You can only book appointments for yourself');
  }
  const { id } = await place(env, await patientFor(env, user, body.patientId), body, {
    ...(body.doctorId ? { doctorId: body.doctorId } : {}),
  });
  return json({ acknowledged: true, insertedId: id, message: 'Booking confirmed' } satisfies BookingCreated, 201);
}

/** GET /api/bookings?email=: a patient's upcoming and past bookings, by date and time. */
export async function listBookings(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const email = (inputOf(request, 'GET /bookings').query.email ?? user.email).trim().toLowerCase();
  if (email !== user.email && user.role !== 'admin') {
    throw new HttpError(403, 'You can only see your own bookings');
  }
  // By user id (indexed), not by the email on the bookings (unindexed): the caller's own id, or, for
  // an admin asking for someone else, the id of the user holding that email (none: no bookings).
  const patientId = email === user.email ? user.id : (await userByEmail(env.DB, email))?.id;
  if (patientId === undefined) return json([] satisfies Booking[]);
  const now = clock();
  // The account's own bookings and its dependants', by time, and the clinic's policy: one round trip.
  const [policyAnswer, list] = await env.DB.batch([
    policyRow(env.DB),
    bookingsOf(env.DB, patientId, now, clinicNow(env, now).date),
  ]);
  const policy = toPolicy(policyAnswer?.results[0] as PolicyRow | undefined);
  const rows = (list?.results ?? []) as BookingRow[];
  return json(rows.map((row) => toBooking(row, env, policy)));
}

/**
 * GET /api/bookings/history?page= (the patient): their past and cancelled visits, newest first, a
 * page at a time, each with what became of it, its refund and whether it has a receipt.
 */
export async function bookingHistory(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const { page } = inputOf(request, 'GET /bookings/history').query;
  const now = clock();
  const today = clinicNow(env, now);
  const [rows, policy] = await Promise.all([
    pastBookingsOf(env.DB, user.id, { ...today, now }, HISTORY_PAGE_SIZE + 1, (page - 1) * HISTORY_PAGE_SIZE),
    readPolicy(env.DB),
  ]);
  return json({
    bookings: rows.slice(0, HISTORY_PAGE_SIZE).map(
      (row): PastBooking => ({
        ...toBooking(row, env, policy),
        status: row.expired === 1 ? 'cancelled' : row.status === 'moved' ? 'cancelled' : row.status,
        cancelReason: row.expired === 1 ? 'unpaid' : row.cancel_reason,
        refund:
          row.refund_status === null
            ? null
            : {
                status: row.refund_status,
                amount: (row.refund_amount_cents ?? 0) / 100,
                currency: row.currency ?? 'usd',
              },
        hasReceipt: row.has_receipt === 1,
      }),
    ),
    nextPage: rows.length > HISTORY_PAGE_SIZE ? page + 1 : null,
  } satisfies BookingHistory);
}

export const RELEASED_MESSAGE = 'This booking was released because it was not paid in time; please book again';

/**
 * An active booking that `user` may see: its owner's, or any for an admin (404 / 403 otherwise).
 * An unpaid booking whose hold has ended is released, swept or not yet: 410.
 */
export async function bookingFor(env: Env, user: User, id: string, ownerOnly = false): Promise<BookingRow> {
  const row = await bookingById(env.DB, id, clock());
  if (!row || (row.status !== 'active' && row.cancel_reason !== 'unpaid')) throw new HttpError(404, 'No such booking');
  if (row.account_id !== user.id && (ownerOnly || user.role !== 'admin')) {
    throw new HttpError(403, 'This booking is not yours');
  }
  if (row.status !== 'active' || row.expired) throw new HttpError(410, RELEASED_MESSAGE);
  await noteStaffRead(env, user, row);
  return row;
}

/**
 * docs/product-booking.md#family: staff opening a dependant's booking (someone without a login, whose
 * guardian holds the account) leaves a row in the audit trail, as the family's privacy asks.
 */
export async function noteStaffRead(
  env: Env,
  user: User,
  row: { id: string; user_id: string; account_id: string; patient_name: string },
): Promise<void> {
  if (user.role !== 'admin' || row.account_id === row.user_id || row.account_id === user.id) return;
  await auditEntry(env.DB, {
    actor: user,
    action: 'record.read',
    target: { type: 'user', id: row.user_id, name: row.patient_name },
    after: { booking: row.id },
  }).run();
}

/** GET /api/bookings/:id: what the payment page loads. */
export async function getBooking(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const [row, policy] = await Promise.all([
    bookingFor(env, user, inputOf(request, 'GET /bookings/:id').params.id),
    readPolicy(env.DB),
  ]);
  return json(toBooking(row, env, policy));
}

/**
 * DELETE /api/bookings/:id: cancels and frees the slot. The owner cancels before the start; a paid
 * booking only outside the clinic's cancellation policy window, refunded in full. An admin cancels
 * any, refunding a paid one unless `?refund=false`.
 */
export async function cancelBooking(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const input = inputOf(request, 'DELETE /bookings/:id');
  const { refund } = input.query;
  const row = await bookingFor(env, user, input.params.id);
  return json(await cancel(env, user, row, { refund: refund !== 'false' }));
}

/** GET /api/bookings/:id/calendar.ics: the appointment as a calendar event (owner only). */
export async function bookingCalendar(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const row = await bookingFor(env, user, inputOf(request, 'GET /bookings/:id/calendar.ics').params.id, true);
  const [settings, language] = await Promise.all([messageSettings(env.DB), userLanguage(env.DB, user.id)]);
  // In the language of the account that downloads it, as its mails are (docs/languages.md).
  const file = calendarFile(
    env,
    calendarAppointment(row),
    { name: settings.clinic_name, address: settings.clinic_address },
    { words: wordsFor(env, languageOf(language)) },
  );
  return new Response(file, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="appointment-${row.appointment_date}.ics"`,
      'Cache-Control': 'no-store',
    },
  });
}
