/**
 * Messages to patients (issue 16): one function per kind of news, answering the statements that
 * queue it in the outbox (and a booking's reminders). The messages consumer (./consumer.ts) runs
 * them in its batch when a domain event arrives; the mail itself goes out through the queue.
 */
import { clinicInstant } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import { queueBookingMail, queueRecordInvite } from './data/outbox.ts';
import { insertReminder, type ReminderKind } from './data/reminders.ts';

const HOUR = 60 * 60_000;

/** Each reminder: how long before the start it is due, and until how long before the start it may still go out. */
export const REMINDERS: Record<ReminderKind, { dueBefore: number; lastBefore: number }> = {
  '24h': { dueBefore: 24 * HOUR, lastBefore: 12 * HOUR },
  '2h': { dueBefore: 2 * HOUR, lastBefore: 1 * HOUR },
};

export interface BookedTime {
  id: string;
  /** ISO date and minutes after midnight on the clinic's clock. */
  appointmentDate: string;
  startMinute: number;
}

/** The reminders of a booking that is active at this point of the batch (24 h and 2 h before; the cron decides whether the 2 h one goes out). */
export function remindersOf(env: Env, booking: BookedTime, now: Date): D1PreparedStatement[] {
  const start = clinicInstant(env, booking.appointmentDate, booking.startMinute).getTime();
  return (Object.entries(REMINDERS) as [ReminderKind, (typeof REMINDERS)[ReminderKind]][]).map(([kind, lead]) =>
    insertReminder(env.DB, {
      bookingId: booking.id,
      kind,
      dueAt: new Date(start - lead.dueBefore),
      sendUntil: new Date(start - lead.lastBefore),
      now,
    }),
  );
}

/** A booking was made (put after its insert): the confirmation with its calendar file, and its reminders. */
export function bookingConfirmed(env: Env, booking: BookedTime, now: Date): D1PreparedStatement[] {
  return [
    queueBookingMail(env.DB, {
      kind: 'confirmation',
      dedupeKey: `confirmation:${booking.id}`,
      bookingId: booking.id,
      now,
      onlyIf: "b.status = 'active'",
    }),
    ...remindersOf(env, booking, now),
  ];
}

/**
 * A booking was cancelled (put after the statement that cancels it): the mail says who cancelled
 * (`by`: 'patient', 'admin') and why (`reason`, the clinic's words), and its time is offered to the
 * waitlist. Its reminders are not sent: the cron re-reads the booking.
 */
export function bookingCancelled(
  env: Env,
  bookingId: string,
  cancellation: { by: 'patient' | 'admin'; reason?: string | null },
  now: Date,
): D1PreparedStatement[] {
  return [
    queueBookingMail(env.DB, {
      kind: 'cancellation',
      dedupeKey: `cancellation:${bookingId}`,
      bookingId,
      now,
      extra: { by: cancellation.by, reason: cancellation.reason ?? null },
      onlyIf: "b.status != 'active'",
    }),
  ];
}

/**
 * A booking moved to another time (put after the statements that move it): `to` is the booking at
 * its new time (a new booking, or the same one with its version bumped), `from` the old time. The
 * mail tells both, the new time gets its reminders (the old time's are never sent: the cron
 * re-reads the booking), and the old time is offered to the waitlist.
 */
export function bookingRescheduled(
  env: Env,
  move: { from: { date: string; startMinute: number }; to: BookedTime },
  now: Date,
): D1PreparedStatement[] {
  const to = move.to;
  return [
    queueBookingMail(env.DB, {
      kind: 'reschedule',
      dedupeKey: `reschedule:${to.id}:${to.appointmentDate}:${to.startMinute}`,
      bookingId: to.id,
      now,
      extra: { from: move.from },
      onlyIf: "b.status = 'active'",
    }),
    ...remindersOf(env, to, now),
  ];
}

/** The invitation to a dependant of 18 or more to claim their own record, to the address the guardian gave (see queueRecordInvite). */
export function recordInvited(
  env: Env,
  invite: { dependantId: string; email: string; today: string },
  now: Date,
): D1PreparedStatement[] {
  return [queueRecordInvite(env.DB, invite.dependantId, invite.email, invite.today, now)];
}
