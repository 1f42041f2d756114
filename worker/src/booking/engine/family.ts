import type { FamilyVisitBooked } from '../../../../contract/family.ts';
import { slotLabel } from '../../../../contract/slot-label.ts';
import type { TreatmentRow } from '../../clinic/data/treatments.ts';
import type { Patient } from '../../people/data/users.ts';
import { clinicInstant } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Actor, Fields } from '../../platform/data/audit.ts';
import { violates } from '../../platform/data/unique-constraint.ts';
import type { Env } from '../../platform/env.ts';
import { HttpError } from '../../platform/http.ts';
import { patientResource } from '../data/claims.ts';
import { bookingEvent, releasedEvents } from '../data/events.ts';
import {
  checkPlacement,
  dropDeadClaims,
  insertBooking,
  insertClaims,
  markFamilyVisit,
  type NewBookingRow,
  ONE_CLAIM_PER_CELL,
} from '../data/writes.ts';
import { holdRules, openWeek, paymentTerms } from '../holds.ts';
import { cellsOf, type Day, freePairs, type Pair, readDay, treatmentOn } from '../schedule.ts';
import { asPatient, bookingAudit, claimOf, placementOf, planStart, type WantedTime } from './plan.ts';
import { brokenRule, conflictOf, notOffered, PAIR_RULES, unpaidLimitMessage } from './rules.ts';

/** A member of a family visit: the person (the caller or a dependant) and what they come for. */
export interface FamilyMember {
  patient: Patient;
  treatment: string;
}

/** Where each member of a family visit goes at `start`, or the index of the first who does not fit. */
export function familyPlan(
  day: Day,
  members: { patientId: string; treatment: TreatmentRow }[],
  start: number,
  arrangement: 'together' | 'back-to-back',
): { places: { start: number; pair: Pair }[] } | { misfit: number } {
  const places: { start: number; pair: Pair }[] = [];
  let next = start;
  for (const [index, member] of members.entries()) {
    const at = arrangement === 'together' ? start : next;
    const minutes = member.treatment.duration_minutes;
    const { firstCell, lastCell } = cellsOf(at, minutes);
    const patientCells = day.taken.get(patientResource(member.patientId));
    const patientBusy = patientCells?.slice(firstCell, lastCell + 1).some(Boolean) ?? false;
    const withinHours = day.hours !== null && day.hours.open <= at && at + minutes <= day.hours.close;
    // Together, the members share the time: each needs a doctor and a chair no other member has.
    const pair =
      withinHours && !patientBusy && member.treatment.active === 1
        ? freePairs(day, member.treatment, at).find(
            (p) =>
              arrangement === 'back-to-back' ||
              places.every((other) => other.pair.doctorId !== p.doctorId && other.pair.chairId !== p.chairId),
          )
        : undefined;
    if (!pair) return { misfit: index };
    places.push({ start: at, pair });
    next = at + minutes;
  }
  return { places };
}

/**
 * Books a family visit: every member at once (one batch: a placement check, the booking, its claims
 * and its confirmation for each, then the family mark), or nothing. A member who does not fit, now or
 * in a race lost to another booking, makes it a 409 naming them. Answers the bookings' ids.
 */
export async function placeFamily(
  env: Env,
  members: FamilyMember[],
  wanted: { appointmentDate: string; arrangement: 'together' | 'back-to-back'; phone: string } & WantedTime,
  options: { payAtClinic?: boolean; byPhone?: { actor: Actor; after: Fields } } = {},
): Promise<FamilyVisitBooked['visits']> {
  const now = clock();
  if (!members[0]) throw new HttpError(400, 'a family visit has 2 or more members');
  // The visit starts where the first member's treatment may start: planStart's every check.
  const {
    isoDate,
    day,
    startMinute: start,
  } = await planStart(env, { ...wanted, treatment: members[0].treatment }, now);
  const resolved = members.map((m) => {
    const treatment = treatmentOn(day, m.treatment);
    if (treatment.active !== 1) throw new HttpError(400, notOffered(treatment.name));
    return { ...m, treatment, patientId: m.patient.id };
  });
  const first = resolved[0] as (typeof resolved)[number];
  const misfit = (index: number) => {
    const member = resolved[index];
    return new HttpError(
      409,
      `${member?.patient.name ?? 'A member'} cannot have ${member?.treatment.name ?? 'their treatment'} then; nothing was booked. Choose another time.`,
    );
  };
  const plan = familyPlan(day, resolved, start, wanted.arrangement);
  if ('misfit' in plan) throw misfit(plan.misfit);
  const rules = holdRules(env);
  const week = await openWeek(env);
  // Paid at the clinic (the front desk's choice), the visit holds nothing and counts toward no limit.
  const maxUnpaid = options.payAtClinic ? null : rules.maxUnpaid;
  const byClinic = options.byPhone !== undefined;
  const familyVisitId = crypto.randomUUID();
  const terms = await Promise.all(
    resolved.map((member, index) =>
      paymentTerms(
        env,
        member.treatment,
        {
          now,
          startsAt: clinicInstant(env, isoDate, (plan.places[index] as { start: number }).start),
          patientId: member.patient.id,
          week,
        },
        { payAtClinic: options.payAtClinic, byPatient: !byClinic },
      ),
    ),
  );
  const bookings = resolved.map((member, index) => {
    const place = plan.places[index] as { start: number; pair: Pair };
    const minutes = member.treatment.duration_minutes;
    const startsAt = clinicInstant(env, isoDate, place.start);
    const booking: NewBookingRow = {
      id: crypto.randomUUID(),
      treatmentId: member.treatment.id,
      treatment: member.treatment.name,
      appointmentDate: isoDate,
      slot: slotLabel(place.start, minutes),
      startMinute: place.start,
      durationMinutes: minutes,
      doctorId: place.pair.doctorId,
      chairId: place.pair.chairId,
      userId: member.patient.id,
      patientName: member.patient.name,
      email: member.patient.email,
      phone: wanted.phone,
      priceCents: member.treatment.price_cents,
      createdAt: now.toISOString(),
      ...(terms[index] as Awaited<ReturnType<typeof paymentTerms>>),
    };
    return { booking, startsAt, claim: claimOf(isoDate, place.pair, member.patient.id, cellsOf(place.start, minutes)) };
  });
  try {
    await env.DB.batch([
      releasedEvents(env.DB, now),
      dropDeadClaims(env.DB, isoDate, now),
      ...bookings.flatMap(({ booking, startsAt, claim }) => [
        checkPlacement(env.DB, placementOf(booking, { maxUnpaid, now, startsAt })),
        insertBooking(env.DB, booking),
        ...(options.byPhone
          ? [
              bookingAudit(env, options.byPhone.actor, 'booking.booked_by_phone', booking.id, {
                after: {
                  ...options.byPhone.after,
                  patientId: booking.userId,
                  treatment: booking.treatment,
                  slot: booking.slot,
                },
              }),
            ]
          : []),
        insertClaims(env.DB, booking.id, claim),
        bookingEvent(env.DB, 'booking.placed', booking.id, {
          actor: options.byPhone?.actor ?? asPatient(first.patient),
          at: now,
          familyVisitId,
          payload: { by: byClinic ? 'clinic' : 'patient' },
        }),
      ]),
      markFamilyVisit(
        env.DB,
        familyVisitId,
        bookings.map((b) => b.booking.id),
      ),
    ]);
  } catch (error) {
    const rule = brokenRule(error);
    if (rule === 'hold_limit') throw new HttpError(409, unpaidLimitMessage(rules.maxUnpaid, byClinic));
    if (!(rule && PAIR_RULES.has(rule)) && rule !== 'patient_busy' && !violates(error, ONE_CLAIM_PER_CELL)) {
      throw (
        conflictOf(error, { byClinic, isoDate, treatment: first.treatment.name, maxUnpaid: rules.maxUnpaid }) ?? error
      );
    }
    // Lost a race: say who no longer fits, as the day is now.
    const again = familyPlan(await readDay(env, isoDate, clock()), resolved, start, wanted.arrangement);
    throw misfit('misfit' in again ? again.misfit : 0);
  }
  return bookings.map(({ booking }) => ({
    _id: booking.id,
    patientName: booking.patientName,
    treatment: booking.treatment,
    slot: booking.slot,
    price: booking.priceCents / 100,
    payBy: booking.holdUntil,
  }));
}
