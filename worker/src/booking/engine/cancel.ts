import type { BookingCancelled } from '../../../../contract/bookings.ts';
import type { RefundState } from '../../../../contract/payments.ts';
import { readPolicy } from '../../clinic/data/cancellation-policy.ts';
import { clinicInstant } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Actor } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';
import { deliverEvent } from '../../platform/events.ts';
import { HttpError } from '../../platform/http.ts';
import { type BookingRow, freeCancellationUntil } from '../data/bookings.ts';
import { bookingEvent, releasedEvents } from '../data/events.ts';
import { withdrawOffersOfPatient } from '../data/offer-writes.ts';
import { cancelActiveBooking, erasePatient, freeClaimsOfEndedBooking, releaseLapsedHolds } from '../data/writes.ts';
import { bookingAudit } from './plan.ts';
import { CHANGED } from './rules.ts';

/**
 * The statements that cancel `row` for `actor` (the one way a booking is cancelled): the booking
 * cancelled (only while active, and unpaid unless `evenPaid`), its event (whose consumers mail the
 * patient, refund a paid booking unless `refund` is false, and offer the time to the waitlist), its
 * audit row, its claims freed. `lateFee`: the patient cancels after the free window, and the
 * late-cancel fee they accepted is to be charged.
 */
export function cancelStatements(
  env: Env,
  actor: Actor,
  row: BookingRow,
  {
    evenPaid,
    by,
    note,
    refund,
    lateFee = false,
  }: { evenPaid: boolean; by: 'patient' | 'admin'; note: string | null; refund: boolean; lateFee?: boolean },
) {
  // The clinic's cancellations are in the audit trail; a patient's own is not an admin action.
  const head = [
    cancelActiveBooking(env.DB, row.id, { evenPaid, by, note }),
    bookingEvent(env.DB, 'booking.cancelled', row.id, {
      actor,
      at: clock(),
      ifChanged: true,
      returning: true,
      payload: { by, reason: note, refund, ...(lateFee ? { lateFee } : {}) },
    }),
    ...(by === 'admin'
      ? [
          bookingAudit(env, actor, 'booking.cancelled', row.id, {
            before: { status: 'active', paid: row.paid === 1 },
            after: { status: 'cancelled', cancelReason: by, ...(note ? { cancelNote: note } : {}) },
          }),
        ]
      : []),
    freeClaimsOfEndedBooking(env.DB, row.id),
  ];
  return {
    statements: head,
    /** How many rows the cancellation changed (0: it was no longer active, or paid meanwhile). */
    changed: (results: D1Result[]) => results[0]?.meta.changes ?? 0,
    /** The cancellation's event, when it happened. */
    event: (results: D1Result[]) => (results[1]?.results[0] as { seq?: number } | undefined)?.seq ?? null,
  };
}

/**
 * The refund of a cancellation, now: the money consumer handles the cancellation's event at once
 * (the queue's delivery of it then finds it done), so the answer can say where the refund stands.
 * A failure here leaves it to the queue, which retries.
 */
export async function refundNow(env: Env, seq: number | null): Promise<RefundState | null> {
  if (seq === null) return null;
  try {
    return ((await deliverEvent(env, seq, 'money'))?.answers.get('money') as RefundState | null | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * Cancels `row` for `actor`: its patient before the start (a paid booking only until its free
 * cancellation deadline, refunded in full), an admin any (refunding a paid one unless `refund` is
 * false, with the clinic's `reason`). A cancellation that changed nothing is a 409. The time is
 * offered to the waitlist after the answer.
 */
export async function cancel(
  env: Env,
  actor: { id: string; email: string; role: 'patient' | 'admin' },
  row: BookingRow,
  { refund = true, reason = null }: { refund?: boolean; reason?: string | null } = {},
): Promise<BookingCancelled> {
  const byAdmin = actor.role === 'admin';
  let evenPaid = byAdmin;
  let windowHours = 0;
  if (!byAdmin) {
    const now = clock().getTime();
    if (clinicInstant(env, row.appointment_date, row.start_minute).getTime() <= now) {
      throw new HttpError(409, 'This appointment has already started');
    }
    windowHours = (await readPolicy(env.DB)).freeCancellationHours;
    evenPaid = now < freeCancellationUntil(env, row, windowHours).getTime();
    if (row.paid && !evenPaid) throw new HttpError(409, insideWindowMessage(windowHours));
  }
  const by = row.account_id === actor.id ? 'patient' : 'admin';
  const plan = cancelStatements(env, actor, row, {
    evenPaid,
    by,
    note: by === 'admin' ? reason : null,
    refund: !(byAdmin && !refund),
    // A patient cancelling after the free window owes the late-cancel fee they accepted (money/fees.ts).
    lateFee: by === 'patient' && !evenPaid && row.late_cancel_fee_cents > 0,
  });
  const results = await env.DB.batch(plan.statements);
  if (plan.changed(results) === 0) {
    // The write re-checks: a payment landing inside the window keeps the booking; anything else changed it.
    if (!evenPaid && row.paid === 0) throw new HttpError(409, insideWindowMessage(windowHours));
    throw new HttpError(409, CHANGED);
  }
  const refunded = await refundNow(env, plan.event(results));
  return {
    acknowledged: true,
    modifiedCount: 1,
    message: 'Booking cancelled',
    ...(refunded ? { refund: refunded } : {}),
  };
}

/**
 * Erases patients (an account holder and the people in their account: the account is deleted by
 * an admin, or by its holder): in one batch, every upcoming booking of theirs (`upcoming`) is
 * cancelled, each with its audit row and its event, then `notices` (the caller's mails to the
 * address they had, which the erasure is about to remove; paid ones refunded,
 * unless `refund` says the policy keeps the money), their open offers withdrawn, their waitlist
 * entries closed, their records anonymised, then `after` (the erasure's audit row first, with
 * IF_CHANGED, and the pseudonymised audit trail). The holder erasing their own account cancels as
 * the patient (a cancellation's policy applies, decided by the caller); an admin as the clinic.
 * Answers whether the first record was erased (false: erased meanwhile).
 */
export async function erase(
  env: Env,
  actor: { id: string; email: string; role: 'patient' | 'admin' },
  userIds: [string, ...string[]],
  upcoming: { row: BookingRow; refund: boolean }[],
  after: D1PreparedStatement[],
  notices: D1PreparedStatement[] = [],
): Promise<boolean> {
  const now = clock();
  const byThemselves = actor.id === userIds[0];
  const plans = upcoming.map(({ row, refund }) =>
    cancelStatements(env, actor, row, {
      evenPaid: true,
      by: byThemselves ? 'patient' : 'admin',
      note: byThemselves ? null : 'Your record at the clinic was deleted',
      refund,
    }),
  );
  const cancelling = plans.flatMap((plan) => plan.statements);
  // The account holder last, so the batch's last erasing statement says whether theirs was erased.
  const erasing = [...userIds]
    .reverse()
    .flatMap((userId) => [...withdrawOffersOfPatient(env.DB, userId), ...erasePatient(env.DB, userId, now)]);
  const results = await env.DB.batch([...cancelling, ...notices, ...erasing, ...after]);
  return (results[cancelling.length + notices.length + erasing.length - 1]?.meta.changes ?? 0) > 0;
}

/**
 * The Cron Trigger's sweep: every unpaid booking whose hold ended by `now` is released, its claims
 * freed and its 'booking.released' event appended, in one batch. Answers how many were released.
 */
export async function releaseLapsed(env: Env, now: Date): Promise<number> {
  const results = await env.DB.batch([...releaseLapsedHolds(env.DB, now), releasedEvents(env.DB, now)]);
  return results[1]?.meta.changes ?? 0;
}

/** What a patient is told when a paid booking is inside the window: only the clinic cancels it now. */
export function insideWindowMessage(hours: number): string {
  const until = hours === 0 ? 'until it starts' : `until ${hours} hour${hours === 1 ? '' : 's'} before it starts`;
  return `A paid appointment can be cancelled online ${until}; please call the clinic to cancel this one`;
}
