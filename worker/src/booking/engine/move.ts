import { clinicInstant } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Actor } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';
import { HttpError } from '../../platform/http.ts';
import type { BookingRow } from '../data/bookings.ts';
import { bookingEvent, releasedEvents } from '../data/events.ts';
import {
  checkPlacement,
  dropDeadClaims,
  insertClaims,
  type MoveRow,
  moveStatements,
  releaseLapsedHoldsInTheWay,
} from '../data/writes.ts';
import { holdEnd, holdRules, openWeek } from '../holds.ts';
import { freePairs } from '../schedule.ts';
import { bookingAudit, claimOf, placementOf, planStart, type WantedTime } from './plan.ts';
import { firstPairThatHolds } from './rules.ts';

/**
 * Moves an active booking to another free start of its treatment, under every rule of a new booking
 * (its own time does not count as taken; no new hold is taken). One batch per pair tried: the
 * placement check (the booking still as it was read), the old booking marked moved, its claims
 * freed, the new booking with the same patient, price, payment, calendar UID and a higher version,
 * a paid booking's paid-for start carried (never later), the audit row, the new claims, the mail
 * and the new time's reminders; the old time goes to the waitlist after the answer. Answers the new
 * booking's id and its date.
 */
export async function move(
  env: Env,
  actor: Actor,
  old: BookingRow,
  wanted: { appointmentDate: string } & WantedTime,
): Promise<{ id: string; isoDate: string; slot: string }> {
  const now = clock();
  const plan = await planStart(env, { treatment: old.treatment_id, ...wanted }, now, old.id);
  const { isoDate, treatment, startMinute, cells } = plan;
  if (isoDate === old.appointment_date && startMinute === old.start_minute) {
    throw new HttpError(400, 'This is the time the appointment already has; choose another one');
  }
  const startsAt = clinicInstant(env, isoDate, startMinute);
  // An unpaid booking keeps its payment deadline (moving never buys time to pay), and is held no
  // later than the hold rules allow for its new start; one without a deadline (paid at the clinic,
  // kept with a card) gets none.
  const holdUntil =
    old.paid === 1 || old.price_cents === 0 || old.hold_until === null
      ? null
      : new Date(
          Math.min(
            Date.parse(old.hold_until ?? now.toISOString()),
            holdEnd(now, startsAt, holdRules(env), await openWeek(env)).getTime(),
          ),
        ).toISOString();
  const byClinic = actor !== null && 'id' in actor && actor.id !== old.user_id;
  const context = { byClinic, isoDate, treatment: treatment.name, maxUnpaid: 0 };
  return firstPairThatHolds(freePairs(plan.day, treatment, startMinute), context, async (pair) => {
    const movement: MoveRow = {
      from: { id: old.id, paid: old.paid, paymentIntentId: old.payment_intent_id },
      to: {
        id: crypto.randomUUID(),
        appointmentDate: isoDate,
        slot: plan.slot,
        startMinute,
        durationMinutes: treatment.duration_minutes,
        doctorId: pair.doctorId,
        chairId: pair.chairId,
        holdUntil,
        startsAt,
      },
      at: now.toISOString(),
    };
    const claim = claimOf(isoDate, pair, old.user_id, cells);
    await env.DB.batch([
      ...releaseLapsedHoldsInTheWay(env.DB, { userId: old.user_id, treatmentId: old.treatment_id, claim }, now),
      releasedEvents(env.DB, now),
      dropDeadClaims(env.DB, isoDate, now),
      checkPlacement(
        env.DB,
        placementOf(
          {
            treatmentId: old.treatment_id,
            appointmentDate: isoDate,
            startMinute,
            durationMinutes: treatment.duration_minutes,
            ...pair,
            userId: old.user_id,
            priceCents: old.price_cents,
          },
          { maxUnpaid: null, now, startsAt, moving: movement.from },
        ),
      ),
      ...moveStatements(
        env.DB,
        movement,
        bookingAudit(env, actor, 'booking.rescheduled', old.id, {
          before: { appointmentDate: old.appointment_date, slot: old.slot },
          after: { appointmentDate: isoDate, slot: plan.slot, movedTo: movement.to.id },
        }),
      ),
      insertClaims(env.DB, movement.to.id, claim),
      bookingEvent(env.DB, 'booking.moved', movement.to.id, {
        actor: actor ?? { system: 'system' },
        at: now,
        payload: { from: { date: old.appointment_date, startMinute: old.start_minute }, fromBooking: old.id },
      }),
    ]);
    return { id: movement.to.id, isoDate, slot: plan.slot };
  });
}
