/** Where a booking may go (planStart), and the rows every placement shares: its claims, its audit row, its placement check. */

import type { AuditAction } from '../../../../contract/audit.ts';
import { slotLabel, startMinuteOf } from '../../../../contract/slot-label.ts';
import type { TreatmentRow } from '../../clinic/data/treatments.ts';
import type { Patient } from '../../people/data/users.ts';
import {
  bookingWindowProblem,
  displayDate,
  firstBookableMinute,
  isWholeInterval,
  parseClinicDate,
} from '../../platform/clinic-time.ts';
import { type Actor, auditEntry, type Fields, IF_CHANGED } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';
import { HttpError } from '../../platform/http.ts';
import { bookingName } from '../data/bookings.ts';
import { chairResource, doctorResource, patientResource } from '../data/claims.ts';
import type { NewBookingRow, PlacementCheck } from '../data/writes.ts';
import { cellsOf, type Day, gridStarts, type Pair, readDay, treatmentOn } from '../schedule.ts';
import { notOffered, STARTED } from './rules.ts';

/** A time as a write names it: by its start ("10:00") or by its label ("10.00 AM - 10.30 AM"), one of them. */
export type WantedTime = { slot?: string; start?: string };

/** Whether `start` (minutes) is the time `wanted` names, for a treatment of `minutes`. */
export function isWantedTime(wanted: WantedTime, start: number, minutes: number): boolean {
  return wanted.start === undefined ? slotLabel(start, minutes) === wanted.slot : startMinuteOf(wanted.start) === start;
}

export interface StartPlan {
  isoDate: string;
  day: Day;
  treatment: TreatmentRow;
  startMinute: number;
  /** The time's label for its length, whichever way it was named ("10.00 AM - 10.30 AM"). */
  slot: string;
  cells: { firstCell: number; lastCell: number };
}

/**
 * Where a booking of `wanted.treatment` (its id or name) may go at `wanted.start` (or the label `wanted.slot`) on
 * `wanted.appointmentDate`: the date inside the horizon, the treatment offered, the clinic open, the
 * time one of the day's starts for its length that has not started and exists on the clock. 400/404
 * with the reason otherwise (the database checks it all again in the placement's batch).
 * `ignoreBooking`: a booking being moved, whose own time does not count as taken.
 */
export async function planStart(
  env: Env,
  wanted: { treatment: string; appointmentDate: string } & WantedTime,
  now: Date,
  ignoreBooking?: string,
): Promise<StartPlan> {
  const isoDate = parseClinicDate(wanted.appointmentDate, 'appointmentDate');
  const problem = bookingWindowProblem(env, isoDate, now);
  if (problem) throw new HttpError(400, problem);
  const day = await readDay(env, isoDate, now, ignoreBooking);
  const treatment = treatmentOn(day, wanted.treatment);
  if (treatment.active !== 1) throw new HttpError(400, notOffered(treatment.name));
  if (!day.hours) throw new HttpError(400, `The clinic is closed on ${displayDate(isoDate)}`);
  const minutes = treatment.duration_minutes;
  const startMinute = gridStarts(day, minutes).find((start) => isWantedTime(wanted, start, minutes));
  const named = wanted.start === undefined ? `slot "${wanted.slot}"` : `time starting at ${wanted.start}`;
  if (startMinute === undefined) throw new HttpError(400, `${treatment.name} has no ${named}`);
  if (startMinute < firstBookableMinute(env, isoDate, now)) throw new HttpError(400, STARTED);
  if (!day.regular && !isWholeInterval(env, isoDate, startMinute, startMinute + minutes)) {
    throw new HttpError(
      400,
      `${treatment.name} has no ${named} on ${displayDate(isoDate)}: the clocks change that night`,
    );
  }
  const slot = slotLabel(startMinute, minutes);
  return { isoDate, day, treatment, startMinute, slot, cells: cellsOf(startMinute, minutes) };
}

/** The claims of a booking or a hold: its doctor's, its chair's and its patient's cells. */
export const claimOf = (
  isoDate: string,
  pair: Pair,
  patientId: string,
  cells: { firstCell: number; lastCell: number },
) => ({
  day: isoDate,
  resources: [doctorResource(pair.doctorId), chairResource(pair.chairId), patientResource(patientId)],
  ...cells,
});

/** A booking's audit row, right after the statement that makes the change (IF_CHANGED). */
export function bookingAudit(
  env: Env,
  actor: Actor,
  action: AuditAction,
  bookingId: string,
  fields: { before?: Fields; after?: Fields },
): D1PreparedStatement {
  return auditEntry(
    env.DB,
    { actor, action, target: { type: 'booking', id: bookingId, name: bookingName(bookingId) }, ...fields },
    IF_CHANGED,
  );
}

/** A patient acting for themselves, as events and audit rows name them. */
export const asPatient = (patient: Patient): Actor => ({ id: patient.id, email: patient.email, role: 'patient' });

export interface PlaceOptions {
  /** The front desk books: the refusals speak of "this patient". */
  byClinic?: boolean;
  /** Paid at the clinic (a booking by the front desk): no hold, never released unpaid. */
  payAtClinic?: boolean;
  /** The doctor the patient asked for (any free one otherwise). */
  doctorId?: string;
  /** The hold limit; null: none (the front desk's override). Default: the clinic's. */
  maxUnpaid?: number | null;
  /** Statements that go first in the booking's batch (a new patient's record). */
  before?: D1PreparedStatement[];
  /** The booking's audit row (who booked, and what the desk noted). */
  audit?: { actor: Actor; action: AuditAction; after: Fields };
}

export function placementOf(
  booking: Pick<
    NewBookingRow,
    | 'treatmentId'
    | 'appointmentDate'
    | 'startMinute'
    | 'durationMinutes'
    | 'doctorId'
    | 'chairId'
    | 'userId'
    | 'priceCents'
  >,
  more: Pick<PlacementCheck, 'maxUnpaid' | 'now' | 'startsAt' | 'moving' | 'offerId'>,
): PlacementCheck {
  return {
    treatmentId: booking.treatmentId,
    day: booking.appointmentDate,
    startMinute: booking.startMinute,
    durationMinutes: booking.durationMinutes,
    doctorId: booking.doctorId,
    chairId: booking.chairId,
    patientId: booking.userId,
    priceCents: booking.priceCents,
    ...more,
  };
}
