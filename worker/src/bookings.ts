import * as v from 'valibot';
import { requireUser, requireVerifiedUser, type User } from './auth.ts';
import { bookingWindowProblem, clinicInstant, displayDate, firstBookableMinute, parseClinicDate } from './clinic-time.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson, text } from './http.ts';
import { spend } from './rate-limit.ts';

type Params = { params: Record<string, string> };

/** What the booking modal sends. Name, email and price are the server's, never the client's. */
const NewBooking = v.object({
  treatment: text('treatment', 100),
  appointmentDate: v.string('appointmentDate is required'),
  slot: text('slot', 40),
  phone: v.optional(v.pipe(v.string('phone must be text'), v.trim(), v.maxLength(40, 'phone must be at most 40 characters')), ''),
  email: v.optional(v.string('email must be text')),
});

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
}

const BOOKING_COLUMNS = `b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot, s.start_minute, b.user_id,
  b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id`;
const FROM_ACTIVE_BOOKINGS = `FROM bookings b
  JOIN treatment_slots s ON s.treatment_id = b.treatment_id AND s.slot = b.slot
  WHERE b.status = 'active'`;

export function toBooking(row: BookingRow, env: Env) {
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
  };
}

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

  const id = crypto.randomUUID();
  try {
    await env.DB.prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, phone, price_cents)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
      .bind(id, treatment.id, treatment.name, isoDate, body.slot, user.id, user.name, user.email, body.phone, treatment.price_cents)
      .run();
  } catch (error) {
    // The partial unique indexes decide, whatever the timing of concurrent requests.
    const message = String(error);
    if (message.includes('UNIQUE') && message.includes('bookings.user_id')) {
      throw new HttpError(409, `You already have a booking on ${displayDate(isoDate)}`);
    }
    if (message.includes('UNIQUE')) throw new HttpError(409, 'This slot was just booked; please choose another one');
    throw error;
  }
  return json({ acknowledged: true, insertedId: id, message: 'Booking confirmed' }, 201);
}

/** GET /api/bookings?email=: a patient's upcoming and past bookings, by date and time. */
export async function listBookings(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const email = (new URL(request.url).searchParams.get('email') ?? user.email).trim().toLowerCase();
  if (email !== user.email && user.role !== 'admin') {
    throw new HttpError(403, 'You can only see your own bookings');
  }
  const { results } = await env.DB.prepare(
    `SELECT ${BOOKING_COLUMNS} ${FROM_ACTIVE_BOOKINGS} AND b.email = ?1
     ORDER BY b.appointment_date, s.start_minute, b.id`,
  )
    .bind(email)
    .all<BookingRow>();
  return json(results.map((row) => toBooking(row, env)));
}

/** An active booking that `user` may see: its owner's, or any for an admin (404 / 403 otherwise). */
export async function bookingFor(env: Env, user: User, id: string, ownerOnly = false): Promise<BookingRow> {
  const row = await env.DB.prepare(`SELECT ${BOOKING_COLUMNS} ${FROM_ACTIVE_BOOKINGS} AND b.id = ?1`)
    .bind(id)
    .first<BookingRow>();
  if (!row) throw new HttpError(404, 'No such booking');
  if (row.user_id !== user.id && (ownerOnly || user.role !== 'admin')) {
    throw new HttpError(403, 'This booking is not yours');
  }
  return row;
}

/** GET /api/bookings/:id: what the payment page loads. */
export async function getBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  return json(toBooking(await bookingFor(env, user, request.params.id ?? ''), env));
}

/** DELETE /api/bookings/:id: cancels and frees the slot (owner: unpaid and not started; admin: any). */
export async function cancelBooking(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const row = await bookingFor(env, user, request.params.id ?? '');
  if (user.role !== 'admin') {
    if (row.paid) throw new HttpError(409, 'A paid booking cannot be cancelled online; please call the clinic');
    if (clinicInstant(env, row.appointment_date, row.start_minute).getTime() <= Date.now()) {
      throw new HttpError(409, 'This appointment has already started');
    }
  }
  const { meta } = await env.DB.prepare(
    `UPDATE bookings SET status = 'cancelled', cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     WHERE id = ?1 AND status = 'active'`,
  )
    .bind(row.id)
    .run();
  return json({ acknowledged: true, modifiedCount: meta.changes, message: 'Booking cancelled' });
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
