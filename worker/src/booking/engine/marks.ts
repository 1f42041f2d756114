import { clinicInstant } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Actor } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';
import { type BookingRow, bookingTimeOf } from '../data/bookings.ts';
import { bookingEvent } from '../data/events.ts';
import {
  clearReview,
  markBookingPaid,
  notePaymentFailure,
  setAttendance,
  setConfirmation,
  setDeskNote,
  setPaymentIntent,
} from '../data/writes.ts';
import { bookingAudit } from './plan.ts';

/**
 * Marks a started booking attended or missed (admin), at `version` when one is given (a mark made
 * offline), with its audit row; answers how many changed. The no-show's event charges the fee its
 * patient accepted (money/fees.ts), unless the desk waives it with the mark.
 */
export async function attend(
  env: Env,
  admin: Actor,
  row: BookingRow,
  status: 'attended' | 'no_show',
  now: Date,
  version: number | null,
  waiveFee = false,
): Promise<number> {
  const [{ meta }] = (await env.DB.batch([
    setAttendance(env.DB, row.id, status, now.toISOString(), version),
    bookingEvent(env.DB, status === 'attended' ? 'booking.attended' : 'booking.no_show', row.id, {
      actor: admin,
      at: now,
      ifChanged: true,
      ...(status === 'no_show' && waiveFee ? { payload: { waiveFee } } : {}),
    }),
    bookingAudit(env, admin, status === 'attended' ? 'booking.attended' : 'booking.no_show', row.id, {
      before: { status: row.status },
      after: { status },
    }),
  ])) as [D1Result];
  return meta.changes;
}

/**
 * The front desk's note on a booking (admin), at the booking's `version` and the note's
 * `noteVersion` when given, with its audit row; answers how many changed.
 */
export async function annotate(
  env: Env,
  admin: Actor,
  row: BookingRow,
  note: string | null,
  seen: { version: number | null; noteVersion: number | null },
): Promise<number> {
  const [{ meta }] = (await env.DB.batch([
    setDeskNote(env.DB, row.id, note, seen),
    bookingEvent(env.DB, 'booking.noted', row.id, { actor: admin, at: clock(), ifChanged: true }),
    bookingAudit(env, admin, 'booking.noted', row.id, { after: { note } }),
  ])) as [D1Result];
  return meta.changes;
}

/**
 * The patient answers a reminder (a link or an SMS reply): coming, or please call. The booking must
 * still be active at the version the message was about; the answer and its audit row are written
 * once however many times it arrives. Answers whether it changed now.
 */
export async function respond(
  env: Env,
  row: BookingRow,
  version: number,
  answer: 'confirmed' | 'callback',
): Promise<boolean> {
  const [{ meta }] = (await env.DB.batch([
    setConfirmation(env.DB, row.id, version, answer),
    bookingEvent(env.DB, answer === 'confirmed' ? 'booking.confirmed' : 'booking.callback', row.id, {
      actor: { id: row.account_id, email: row.email, role: 'patient' },
      at: clock(),
      ifChanged: true,
    }),
    bookingAudit(
      env,
      { id: row.account_id, email: row.email, role: 'patient' },
      answer === 'confirmed' ? 'booking.confirmed' : 'booking.callback_requested',
      row.id,
      { before: { confirmation: row.confirmation }, after: { confirmation: answer } },
    ),
  ])) as [D1Result];
  return meta.changes > 0;
}

// Payments change a booking too: these are the money paths' statements for their own batches.

/** Remembers the payment intent handed out for a booking. */
export const rememberIntent = (env: Env, bookingId: string, intentId: string) =>
  setPaymentIntent(env.DB, bookingId, intentId);

/** Marks a booking paid by `transactionId` (when that payment is not owed back), with the start it has now. */
export async function paidStatement(env: Env, bookingId: string, transactionId: string): Promise<D1PreparedStatement> {
  const start = await bookingTimeOf(env.DB, bookingId);
  const startsAt = start ? clinicInstant(env, start.appointment_date, start.start_minute) : new Date(0);
  return markBookingPaid(env.DB, bookingId, transactionId, startsAt);
}

/** The 'booking.paid' event: put it right after paidStatement (written only when that marked the booking paid). */
export const paidEvent = (env: Env, bookingId: string, transactionId: string, actor: Actor) =>
  bookingEvent(env.DB, 'booking.paid', bookingId, { actor, at: clock(), ifChanged: true, payload: { transactionId } });

/** Notes why a booking's last payment failed. */
export const paymentFailedStatement = (env: Env, bookingId: string, message: string) =>
  notePaymentFailure(env.DB, bookingId, message);

/**
 * The front desk keeps a booking waiting for review as it is (admin), with its audit row: it leaves
 * the review list and its reminders go out again. Answers how many changed (0: not waiting).
 */
export async function keep(env: Env, admin: Actor, row: BookingRow): Promise<number> {
  const [{ meta }] = (await env.DB.batch([
    clearReview(env.DB, row.id),
    bookingEvent(env.DB, 'booking.kept', row.id, { actor: admin, at: clock(), ifChanged: true }),
    bookingAudit(env, admin, 'booking.kept', row.id, {
      before: { needsReview: true },
      after: { needsReview: false },
    }),
  ])) as [D1Result];
  return meta.changes;
}
