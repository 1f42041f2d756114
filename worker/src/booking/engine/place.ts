import type { Patient } from '../../people/data/users.ts';
import { clinicInstant } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Env } from '../../platform/env.ts';
import { HttpError } from '../../platform/http.ts';
import { bookingEvent, releasedEvents } from '../data/events.ts';
import {
  checkPlacement,
  dropDeadClaims,
  insertBooking,
  insertClaims,
  type NewBookingRow,
  releaseLapsedHoldsInTheWay,
} from '../data/writes.ts';
import { holdRules, openWeek, paymentTerms } from '../holds.ts';
import { askedDoctor, dayOf, freePairs } from '../schedule.ts';
import {
  asPatient,
  bookingAudit,
  claimOf,
  type PlaceOptions,
  placementOf,
  planStart,
  type WantedTime,
} from './plan.ts';
import { firstPairThatHolds } from './rules.ts';

/**
 * Places a booking of a free start for `patient` with a doctor of the treatment's specialty (the one
 * asked for, if any) and a chair, both free for its whole length, the least loaded pair first;
 * answers its id and, unpaid, the deadline to pay (none when paid at the clinic). Each try is one
 * batch: release the lapsed holds in the way, the placement check, the booking, its audit row, its
 * claims, its confirmation and reminders.
 */
export async function place(
  env: Env,
  patient: Patient,
  wanted: { treatment: string; appointmentDate: string; phone: string } & WantedTime,
  options: PlaceOptions = {},
): Promise<{ id: string; holdUntil: string | null }> {
  const now = clock();
  const plan = await planStart(env, wanted, now);
  const { isoDate, treatment, startMinute, cells } = plan;
  const rules = holdRules(env);
  // Paid at the clinic, a booking holds nothing: the unpaid limit is not its to count.
  const maxUnpaid = options.payAtClinic ? null : options.maxUnpaid === undefined ? rules.maxUnpaid : options.maxUnpaid;
  const startsAt = clinicInstant(env, isoDate, startMinute);
  const context = {
    byClinic: options.byClinic ?? false,
    isoDate,
    treatment: treatment.name,
    maxUnpaid: maxUnpaid ?? 0,
  };
  const doctor = options.doctorId === undefined ? null : await askedDoctor(env, options.doctorId);
  if (doctor && doctor.specialtyId !== treatment.specialty_id) {
    throw new HttpError(400, `${doctor.name} does not perform ${treatment.name}; choose another doctor or any doctor`);
  }
  const pairs = freePairs(doctor ? dayOf(plan.day, doctor) : plan.day, treatment, startMinute);
  if (doctor && pairs.length === 0) {
    throw new HttpError(409, `${doctor.name} is not free at this time; choose another time or any doctor`);
  }
  const terms = await paymentTerms(
    env,
    treatment,
    { now, startsAt, patientId: patient.id, week: await openWeek(env) },
    { payAtClinic: options.payAtClinic, byPatient: !options.byClinic },
  );
  return firstPairThatHolds(pairs, context, async (pair) => {
    const booking: NewBookingRow = {
      id: crypto.randomUUID(),
      treatmentId: treatment.id,
      treatment: treatment.name,
      appointmentDate: isoDate,
      slot: plan.slot,
      startMinute,
      durationMinutes: treatment.duration_minutes,
      doctorId: pair.doctorId,
      chairId: pair.chairId,
      userId: patient.id,
      patientName: patient.name,
      email: patient.email,
      phone: wanted.phone,
      priceCents: treatment.price_cents,
      createdAt: now.toISOString(),
      ...terms,
    };
    const claim = claimOf(isoDate, pair, patient.id, cells);
    await env.DB.batch([
      ...(options.before ?? []),
      ...releaseLapsedHoldsInTheWay(env.DB, { userId: patient.id, treatmentId: treatment.id, claim }, now),
      releasedEvents(env.DB, now),
      dropDeadClaims(env.DB, isoDate, now),
      checkPlacement(env.DB, placementOf(booking, { maxUnpaid, now, startsAt })),
      insertBooking(env.DB, booking),
      ...(options.audit
        ? [bookingAudit(env, options.audit.actor, options.audit.action, booking.id, { after: options.audit.after })]
        : []),
      insertClaims(env.DB, booking.id, claim),
      bookingEvent(env.DB, 'booking.placed', booking.id, {
        actor: options.audit?.actor ?? asPatient(patient),
        at: now,
        payload: { by: options.byClinic ? 'clinic' : 'patient' },
      }),
    ]);
    return { id: booking.id, holdUntil: terms.holdUntil };
  });
}
