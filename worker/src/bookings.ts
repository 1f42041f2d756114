import { BookingsQuery, NewBooking, type Booking, type BookingCancelled, type BookingCreated } from '../../contract/bookings.ts';
import { requireUser, requireVerifiedUser } from './auth.ts';
import type { User } from './data/users.ts';
import { bookingWindowProblem, clinicInstant, displayDate, firstBookableMinute, parseClinicDate } from './clinic-time.ts';
import type { Env } from './env.ts';
import { heldPastItsEnd, holdEnd, holdRules, liveBooking } from './holds.ts';
import { HttpError, json, readJson, readQuery } from './http.ts';
import { spend } from './rate-limit.ts';

type Params = { params: Record<string, string> };

export interface BookingRow {
  id: string;
  treatment_id: string;
  treatment: string;
  appointment_date: string;
  slot: string;
  start_minute: number;
  user_id: string;
  patient_name: string;
  email: string;
  phone: string;
  price_cents: number;
  paid: number;
  payment_intent_id: string | null;
  hold_until: string | null;
}

const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, s.start_minute, b.user_id,
  b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.hold_until`;
const FROM_BOOKINGS = `FROM bookings b
  JOIN treatment_slots s ON s.treatment_id = b.treatment_id AND s.slot = b.slot`;

export function toBooking(row: BookingRow, env: Env): Booking {
  return {
    _id: row.id,
    treatment: row.treatment,
    treatmentId: row.treatment_id,
    appointmentDate: displayDate(row.appointment_date),
    date: row.appointment_date,
    slot: row.slot,
    startsAt: clinicInstant(env, row.appointment_date, row.start_minute).toISOString(),
    patientName: row.patient_name,
    patient: row.patient_name,
    email: row.email,
    phone: row.phone,
    price: row.price_cents / 100,
    paid: row.paid === 1,
    payBy: row.paid === 1 ? null : row.hold_until,
  };
}

const unpaidLimitMessage = (limit: number) =>
  `You already have ${limit} unpaid appointment${limit === 1 ? '' : 's'}; pay or cancel one before booking another`;

/** POST /api/bookings: books a free slot for the signed-in patient. */
export async function createBooking(request: Request, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body = await readJson(request, NewBooking);
  if (body.email !== undefined && body.email.trim().toLowerCase() !== user.email) {
    throw new HttpError(403, 'You can only book appointments for yourself');
  }
  const isoDate = parseClinicDate(body.appointmentDate, 'appointmentDate');
  const problem = bookingWindowProblem(env, isoDate);
  if (problem) throw new HttpError(400, problem);

  const treatment = await env.DB.prepare('SELECT id, name, price_cents FROM treatments WHERE id = ?1 OR name = ?1')
    .bind(body.treatment)
    .first<{ id: string; name: string; price_cents: number }>();
  if (!treatment) throw new HttpError(404, `No such treatment: ${body.treatment}`);
  const slot = await env.DB.prepare('SELECT start_minute FROM treatment_slots WHERE treatment_id = ?1 AND slot = ?2')
    .bind(treatment.id, body.slot)
    .first<{ start_minute: number }>();
  if (!slot) throw new HttpError(400, `${treatment.name} has no slot "${body.slot}"`);
  if (slot.start_minute < firstBookableMinute(env, isoDate)) throw new HttpError(400, 'This slot has already started');

  // One batch: release the unpaid bookings whose hold has ended and that stand in the way (this
  // slot, or the patient's own booking of this treatment on this date), then insert the booking.
  // Both run only while the patient holds fewer unpaid bookings than allowed, counted inside the
  // statements, so concurrent requests cannot get past the limit. The partial unique indexes
  // refuse a slot or date that is still taken, whatever the timing.
  const rules = holdRules(env);
  const now = new Date();
  const holdUntil = treatment.price_cents > 0
    ? holdEnd(now, clinicInstant(env, isoDate, slot.start_minute), rules).toISOString()
    : null;
  const underLimit = `(?10 = 0 OR (SELECT count(*) FROM bookings held
      WHERE held.user_id = ?6 AND held.status = 'active' AND held.paid = 0 AND held.hold_until > ?11) < ?13)`;
  const release = (match: string) =>
    env.DB.prepare(
      `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?11
       WHERE b.status = 'active' AND ${heldPastItsEnd('b', '?11')} AND ${match} AND ${underLimit}`,
    );
  const bind = [crypto.randomUUID(), treatment.id, treatment.name, isoDate, body.slot, user.id, user.name, user.email, body.phone,
    treatment.price_cents, now.toISOString(), holdUntil, rules.maxUnpaid] as const;
  let inserted: number;
  try {
    const results = await env.DB.batch([
      release('b.treatment_id = ?2 AND b.appointment_date = ?4 AND b.slot = ?5').bind(...bind),
      release('b.user_id = ?6 AND b.treatment_id = ?2 AND b.appointment_date = ?4').bind(...bind),
      env.DB.prepare(
        `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, phone,
           price_cents, created_at, hold_until)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 WHERE ${underLimit}`,
      ).bind(...bind),
    ]);
    inserted = results[2]?.meta.changes ?? 0;
  } catch (error) {
    // The partial unique indexes decide, whatever the timing of concurrent requests.
    const message = String(error);
    if (message.includes('UNIQUE') && message.includes('bookings.user_id')) {
      throw new HttpError(409, `You already have a booking on ${displayDate(isoDate)}`);
    }
    if (message.includes('UNIQUE')) throw new HttpError(409, 'This slot was just booked; please choose another one');
    throw error;
  }
  if (inserted === 0) throw new HttpError(409, unpaidLimitMessage(rules.maxUnpaid));
  return json({ acknowledged: true, insertedId: bind[0], message: 'Booking confirmed' } satisfies BookingCreated, 201);
}

/** GET /api/bookings?email=: a patient's upcoming and past bookings, by date and time. */
export async function listBookings(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const email = (readQuery(request, BookingsQuery).email ?? user.email).trim().toLowerCase();
  if (email !== user.email && user.role !== 'admin') {
    throw new HttpError(403, 'You can only see your own bookings');
  }
  const { results } = await env.DB.prepare(
    `SELECT ${BOOKING_COLUMNS} ${FROM_BOOKINGS}
     WHERE b.email = ?1 AND b.status = 'active' AND ${liveBooking('b', '?2')}
     ORDER BY b.appointment_date, s.start_minute, b.id`,
  )
    .bind(email, new Date().toISOString())
    .all<BookingRow>();
  return json(results.map((row) => toBooking(row, env)));
}

export const RELEASED_MESSAGE = 'This booking was released because it was not paid in time; please book again';

/**
 * An active booking that `user` may see: its owner's, or any for an admin (404 / 403 otherwise).
 * An unpaid booking whose hold has ended is released, swept or not yet: 410.
 */
export async function bookingFor(env: Env, user: User, id: string, ownerOnly = false): Promise<BookingRow> {
  const row = await env.DB.prepare(
    `SELECT ${BOOKING_COLUMNS}, b.status, b.cancel_reason, ${heldPastItsEnd('b', '?2')} AS expired
     ${FROM_BOOKINGS} WHERE b.id = ?1`,
  )
    .bind(id, new Date().toISOString())
    .first<BookingRow & { status: string; cancel_reason: string | null; expired: number }>();
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

const PAID_STAYS = 'A paid booking cannot be cancelled online; please call the clinic';

/** DELETE /api/bookings/:id: cancels and frees the slot (owner: unpaid and not started; admin: any). */
export async function cancelBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const row = await bookingFor(env, user, request.params.id ?? '');
  if (user.role !== 'admin') {
    if (row.paid) throw new HttpError(409, PAID_STAYS);
    if (clinicInstant(env, row.appointment_date, row.start_minute).getTime() <= Date.now()) {
      throw new HttpError(409, 'This appointment has already started');
    }
  }
  // The paid check holds in the write too: a payment landing after the read keeps the booking.
  const { meta } = await env.DB.prepare(
    `UPDATE bookings SET status = 'cancelled', cancel_reason = ?3, cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     WHERE id = ?1 AND status = 'active' AND (?2 OR paid = 0)`,
  )
    .bind(row.id, user.role === 'admin' ? 1 : 0, row.user_id === user.id ? 'patient' : 'admin')
    .run();
  if (meta.changes === 0 && user.role !== 'admin') {
    const paid = await env.DB.prepare('SELECT paid FROM bookings WHERE id = ?1').bind(row.id).first<number>('paid');
    if (paid === 1) throw new HttpError(409, PAID_STAYS);
  }
  return json({ acknowledged: true, modifiedCount: meta.changes, message: 'Booking cancelled' } satisfies BookingCancelled);
}

/** GET /api/bookings/:id/calendar.ics: the appointment as a calendar event (owner only). */
export async function bookingCalendar(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const row = await bookingFor(env, user, request.params.id ?? '', true);
  const start = clinicInstant(env, row.appointment_date, row.start_minute);
  const end = new Date(start.getTime() + 30 * 60_000);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Smile Dental Clinic//Booking portal//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-TIMEZONE:${env.CLINIC_TIME_ZONE}`,
    'BEGIN:VEVENT',
    `UID:${row.id}@dental-clinic`,
    `DTSTAMP:${icsInstant(new Date())}`,
    `DTSTART:${icsInstant(start)}`,
    `DTEND:${icsInstant(end)}`,
    `SUMMARY:${icsText(`${row.treatment} at Smile Dental Clinic`)}`,
    `DESCRIPTION:${icsText(`${row.treatment}, ${displayDate(row.appointment_date)}, ${row.slot} (${env.CLINIC_TIME_ZONE}). Patient: ${row.patient_name}.`)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return new Response(`${lines.join('\r\n')}\r\n`, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="appointment-${row.appointment_date}.ics"`,
      'Cache-Control': 'no-store',
    },
  });
}

function icsInstant(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function icsText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}
