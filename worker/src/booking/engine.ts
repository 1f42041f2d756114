/**
 * The booking engine (issue 23): the one module that changes bookings, their claims and waitlist
 * offers (only it imports booking/data/writes.ts). A booking is placed (by its patient, by the front
 * desk, by accepting an offer), moved, cancelled, released when its hold ends, stranded by a
 * schedule change; an offer is made, accepted, declined, expires or is withdrawn. Each change is one
 * `db.batch()` holding the change, its audit row, its outbox mails and the waitlist trigger.
 *
 * Every placement re-checks every rule of the day inside its own batch (checkPlacement, migration
 * 0011's placement_checks): hours, closures, the doctor's days, hours and specialty, the chair, the
 * treatment being active, who holds the cells (the doctor, the chair and the patient each claim
 * them), and the hold limit counting unpaid bookings and open offers. A rule that fails aborts the
 * batch; `conflictOf` turns it into one plain sentence.
 */

import type { AuditAction } from '../../../contract/audit.ts';
import type {
  BookingCancelled,
  StrandDryRun,
  StrandedBooking,
  StrandedConflict,
  WithdrawnOffer,
} from '../../../contract/bookings.ts';
import type { FamilyVisitBooked } from '../../../contract/family.ts';
import { datesBetween } from '../../../contract/fields.ts';
import { MAX_WAITLIST_DAYS } from '../../../contract/messages.ts';
import type { RefundState } from '../../../contract/payments.ts';
import { slotLabel } from '../../../contract/slot-label.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import type { TreatmentRow } from '../clinic/data/treatments.ts';
import { insideWindowMessage } from '../clinic/policy.ts';
import { messageSettings } from '../messages/data/message-settings.ts';
import {
  bookingWindowProblem,
  clinicInstant,
  clinicNow,
  displayDate,
  firstBookableMinute,
  isWholeInterval,
  parseClinicDate,
} from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { type Actor, auditEntry, type Fields, IF_CHANGED } from '../platform/data/audit.ts';
import { timeFreedEvent } from '../platform/data/events.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { deliverEvent } from '../platform/events.ts';
import { HttpError } from '../platform/http.ts';
import {
  type BookingRow,
  bookingName,
  freeCancellationUntil,
  ONE_BOOKING_PER_PATIENT,
  offersStrandedWhere,
  type ScheduleChange,
  type StrandedRow,
  strandClock,
  strandedBookingRows,
  strandedBookings,
  toStranded,
} from './data/bookings.ts';
import { chairResource, doctorResource, patientResource } from './data/claims.ts';
import { bookingEvent, offerEvent, releasedEvents, strandedEvents, withdrawnOfferEvents } from './data/events.ts';
import { entriesInLine, leaveEntry, type OfferRow, offeredKey, pastOffers } from './data/waitlist.ts';
import {
  acceptOffer,
  cancelActiveBooking,
  checkPlacement,
  clearReview,
  declineOffer,
  dropDeadClaims,
  erasePatient,
  expireOffers,
  freeClaimsOfEndedBooking,
  insertBooking,
  insertClaims,
  insertOffer,
  type MoveRow,
  markBookingPaid,
  markFamilyVisit,
  markStranded,
  moveStatements,
  type NewBookingRow,
  notePaymentFailure,
  ONE_CLAIM_PER_CELL,
  ONE_OPEN_OFFER,
  type PlacementCheck,
  releaseLapsedHolds,
  releaseLapsedHoldsInTheWay,
  type StrandClock,
  setAttendance,
  setConfirmation,
  setDeskNote,
  setPaymentIntent,
  withdrawOffersOfEntry,
  withdrawOffersOfPatient,
  withdrawOffersStrandedBy,
} from './data/writes.ts';
import { holdEnd, holdRules } from './holds.ts';
import { cellsOf, type Day, freePairs, freeStarts, gridStarts, type Pair, readDay, treatmentOn } from './schedule.ts';

// One wording per conflict.
export const TAKEN = 'This slot was just booked; please choose another one';
export const CHANGED = 'This booking was changed meanwhile (paid, cancelled or moved); please reload and try again';
export const STARTED = 'This slot has already started';
export const unpaidLimitMessage = (limit: number, byClinic = false) =>
  byClinic
    ? `This patient already has ${limit} unpaid appointment${limit === 1 ? '' : 's'} to pay online; book this one to be paid at the clinic, or give a reason to go past the limit`
    : `You already have ${limit} unpaid appointment${limit === 1 ? '' : 's'}; pay or cancel one before booking another`;
const notOffered = (name: string) => `${name} is no longer offered; please choose another treatment`;
const alreadyBooked = (isoDate: string, byClinic: boolean) =>
  `${byClinic ? 'This patient already has' : 'You already have'} a booking on ${displayDate(isoDate)}`;
const patientBusy = (byClinic: boolean) =>
  `${byClinic ? 'This patient already has' : 'You already have'} another appointment at this time; please choose another one`;
const CLINIC_CLOSED = 'The clinic is no longer open at this time; please choose another one';

/** The rules of the database's placement check (migration 0011), as the engine names them. */
type Rule =
  | 'booking_changed'
  | 'offer_closed'
  | 'started'
  | 'treatment_inactive'
  | 'clinic_closed'
  | 'doctor_unavailable'
  | 'chair_missing'
  | 'patient_busy'
  | 'doctor_taken'
  | 'chair_taken'
  | 'hold_limit';

/** The rule a refused placement broke, from the database's message "placement:<rule>". */
export function brokenRule(error: unknown): Rule | null {
  const match = /placement:([a-z_]+)/.exec(error instanceof Error ? error.message : String(error));
  return (match?.[1] as Rule | undefined) ?? null;
}

/** Rules another doctor-chair pair may satisfy: the engine tries the next pair. */
const PAIR_RULES: ReadonlySet<Rule> = new Set(['doctor_unavailable', 'chair_missing', 'doctor_taken', 'chair_taken']);

interface ConflictContext {
  byClinic: boolean;
  isoDate: string;
  treatment: string;
  maxUnpaid: number;
}

/** The plain 409 of a refused placement (null: not a rule of placements). */
function conflictOf(error: unknown, context: ConflictContext): HttpError | null {
  if (violates(error, ONE_BOOKING_PER_PATIENT))
    return new HttpError(409, alreadyBooked(context.isoDate, context.byClinic));
  if (violates(error, ONE_CLAIM_PER_CELL)) return new HttpError(409, TAKEN);
  const rule = brokenRule(error);
  switch (rule) {
    case null:
      return null;
    case 'booking_changed':
      return new HttpError(409, CHANGED);
    case 'offer_closed':
      return new HttpError(410, 'This offer has expired or was withdrawn; the time is no longer held for you');
    case 'started':
      return new HttpError(409, STARTED);
    case 'treatment_inactive':
      return new HttpError(409, notOffered(context.treatment));
    case 'clinic_closed':
      return new HttpError(409, CLINIC_CLOSED);
    case 'patient_busy':
      return new HttpError(409, patientBusy(context.byClinic));
    case 'hold_limit':
      return new HttpError(409, unpaidLimitMessage(context.maxUnpaid, context.byClinic));
    default:
      return new HttpError(409, TAKEN);
  }
}

/**
 * Runs `attempt(pair)` for each pair until one batch holds: a pair whose doctor or chair is taken or
 * gone meanwhile gives way to the next; any other refusal is the answer. None left: 409 TAKEN.
 */
async function firstPairThatHolds<T>(
  pairs: Pair[],
  context: ConflictContext,
  attempt: (pair: Pair) => Promise<T>,
): Promise<T> {
  for (const pair of pairs) {
    try {
      return await attempt(pair);
    } catch (error) {
      const rule = brokenRule(error);
      if ((rule && PAIR_RULES.has(rule)) || violates(error, ONE_CLAIM_PER_CELL)) continue;
      throw conflictOf(error, context) ?? error;
    }
  }
  throw new HttpError(409, TAKEN);
}

export interface StartPlan {
  isoDate: string;
  day: Day;
  treatment: TreatmentRow;
  startMinute: number;
  cells: { firstCell: number; lastCell: number };
}

/**
 * Where a booking of `wanted.treatment` (its id or name) may go at `wanted.slot` on
 * `wanted.appointmentDate`: the date inside the horizon, the treatment offered, the clinic open, the
 * slot one of the day's starts for its length that has not started and exists on the clock. 400/404
 * with the reason otherwise (the database checks it all again in the placement's batch).
 * `ignoreBooking`: a booking being moved, whose own time does not count as taken.
 */
export async function planStart(
  env: Env,
  wanted: { treatment: string; appointmentDate: string; slot: string },
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
  const startMinute = gridStarts(day, minutes).find((start) => slotLabel(start, minutes) === wanted.slot);
  if (startMinute === undefined) throw new HttpError(400, `${treatment.name} has no slot "${wanted.slot}"`);
  if (startMinute < firstBookableMinute(env, isoDate, now)) throw new HttpError(400, STARTED);
  if (!day.regular && !isWholeInterval(env, isoDate, startMinute, startMinute + minutes)) {
    throw new HttpError(
      400,
      `${treatment.name} has no slot "${wanted.slot}" on ${displayDate(isoDate)}: the clocks change that night`,
    );
  }
  return { isoDate, day, treatment, startMinute, cells: cellsOf(startMinute, minutes) };
}

/** The claims of a booking or a hold: its doctor's, its chair's and its patient's cells. */
const claimOf = (isoDate: string, pair: Pair, patientId: string, cells: { firstCell: number; lastCell: number }) => ({
  day: isoDate,
  resources: [doctorResource(pair.doctorId), chairResource(pair.chairId), patientResource(patientId)],
  ...cells,
});

/** A booking's audit row, right after the statement that makes the change (IF_CHANGED). */
function bookingAudit(
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

export interface Patient {
  id: string;
  name: string;
  email: string;
}

/** A patient acting for themselves, as events and audit rows name them. */
const asPatient = (patient: Patient): Actor => ({ id: patient.id, email: patient.email, role: 'patient' });

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
  wanted: { treatment: string; appointmentDate: string; slot: string; phone: string },
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
  const pairs = freePairs(plan.day, treatment, startMinute).filter(
    (pair) => options.doctorId === undefined || pair.doctorId === options.doctorId,
  );
  if (options.doctorId !== undefined && pairs.length === 0) {
    throw new HttpError(409, 'This doctor is not free at this time; choose another time or any doctor');
  }
  const holdUntil =
    treatment.price_cents > 0 && !options.payAtClinic ? holdEnd(now, startsAt, rules).toISOString() : null;
  return firstPairThatHolds(pairs, context, async (pair) => {
    const booking: NewBookingRow = {
      id: crypto.randomUUID(),
      treatmentId: treatment.id,
      treatment: treatment.name,
      appointmentDate: isoDate,
      slot: wanted.slot,
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
      holdUntil,
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
    return { id: booking.id, holdUntil };
  });
}

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
  wanted: { appointmentDate: string; slot: string; arrangement: 'together' | 'back-to-back'; phone: string },
  options: { payAtClinic?: boolean; byPhone?: { actor: Actor; after: Fields } } = {},
): Promise<FamilyVisitBooked['visits']> {
  const now = clock();
  const isoDate = parseClinicDate(wanted.appointmentDate, 'appointmentDate');
  const problem = bookingWindowProblem(env, isoDate, now);
  if (problem) throw new HttpError(400, problem);
  const day = await readDay(env, isoDate, now);
  const resolved = members.map((m) => {
    const treatment = treatmentOn(day, m.treatment);
    if (treatment.active !== 1) throw new HttpError(400, notOffered(treatment.name));
    return { ...m, treatment, patientId: m.patient.id };
  });
  if (!day.hours) throw new HttpError(400, `The clinic is closed on ${displayDate(isoDate)}`);
  const first = resolved[0];
  if (!first) throw new HttpError(400, 'a family visit has 2 or more members');
  const start = gridStarts(day, first.treatment.duration_minutes).find(
    (s) => slotLabel(s, first.treatment.duration_minutes) === wanted.slot,
  );
  if (start === undefined) throw new HttpError(400, `${first.treatment.name} has no slot "${wanted.slot}"`);
  if (start < firstBookableMinute(env, isoDate, now)) throw new HttpError(400, STARTED);
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
  // Paid at the clinic (the front desk's choice), the visit holds nothing and counts toward no limit.
  const maxUnpaid = options.payAtClinic ? null : rules.maxUnpaid;
  const byClinic = options.byPhone !== undefined;
  const familyVisitId = crypto.randomUUID();
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
      holdUntil:
        member.treatment.price_cents > 0 && !options.payAtClinic ? holdEnd(now, startsAt, rules).toISOString() : null,
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

function placementOf(
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
  wanted: { appointmentDate: string; slot: string },
): Promise<{ id: string; isoDate: string }> {
  const now = clock();
  const plan = await planStart(env, { treatment: old.treatment_id, ...wanted }, now, old.id);
  const { isoDate, treatment, startMinute, cells } = plan;
  if (isoDate === old.appointment_date && startMinute === old.start_minute) {
    throw new HttpError(400, 'This is the time the appointment already has; choose another one');
  }
  const startsAt = clinicInstant(env, isoDate, startMinute);
  // An unpaid booking keeps its payment deadline (moving never buys time to pay), and is held no
  // later than the hold rules allow for its new start.
  const holdUntil =
    old.paid === 1 || old.price_cents === 0
      ? null
      : new Date(
          Math.min(Date.parse(old.hold_until ?? now.toISOString()), holdEnd(now, startsAt, holdRules(env)).getTime()),
        ).toISOString();
  const byClinic = actor !== null && 'id' in actor && actor.id !== old.user_id;
  const context = { byClinic, isoDate, treatment: treatment.name, maxUnpaid: 0 };
  return firstPairThatHolds(freePairs(plan.day, treatment, startMinute), context, async (pair) => {
    const movement: MoveRow = {
      from: { id: old.id, paid: old.paid, paymentIntentId: old.payment_intent_id },
      to: {
        id: crypto.randomUUID(),
        appointmentDate: isoDate,
        slot: wanted.slot,
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
      checkPlacement(env.DB, {
        treatmentId: old.treatment_id,
        day: isoDate,
        startMinute,
        durationMinutes: treatment.duration_minutes,
        doctorId: pair.doctorId,
        chairId: pair.chairId,
        patientId: old.user_id,
        priceCents: old.price_cents,
        maxUnpaid: null,
        now,
        startsAt,
        moving: movement.from,
      }),
      ...moveStatements(
        env.DB,
        movement,
        bookingAudit(env, actor, 'booking.rescheduled', old.id, {
          before: { appointmentDate: old.appointment_date, slot: old.slot },
          after: { appointmentDate: isoDate, slot: wanted.slot, movedTo: movement.to.id },
        }),
      ),
      insertClaims(env.DB, movement.to.id, claim),
      bookingEvent(env.DB, 'booking.moved', movement.to.id, {
        actor: actor ?? { system: 'system' },
        at: now,
        payload: { from: { date: old.appointment_date, startMinute: old.start_minute }, fromBooking: old.id },
      }),
    ]);
    return { id: movement.to.id, isoDate };
  });
}

/**
 * The statements that cancel `row` for `actor` (the one way a booking is cancelled): the booking
 * cancelled (only while active, and unpaid unless `evenPaid`), its event (whose consumers mail the
 * patient, refund a paid booking unless `refund` is false, and offer the time to the waitlist), its
 * audit row, its claims freed.
 */
function cancelStatements(
  env: Env,
  actor: Actor,
  row: BookingRow,
  { evenPaid, by, note, refund }: { evenPaid: boolean; by: 'patient' | 'admin'; note: string | null; refund: boolean },
) {
  // The clinic's cancellations are in the audit trail; a patient's own is not an admin action.
  const head = [
    cancelActiveBooking(env.DB, row.id, { evenPaid, by, note }),
    bookingEvent(env.DB, 'booking.cancelled', row.id, {
      actor,
      at: clock(),
      ifChanged: true,
      returning: true,
      payload: { by, reason: note, refund },
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
async function refundNow(env: Env, seq: number | null): Promise<RefundState | null> {
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

/**
 * Marks a started booking attended or missed (admin), at `version` when one is given (a mark made
 * offline), with its audit row; answers how many changed.
 */
export async function attend(
  env: Env,
  admin: Actor,
  row: BookingRow,
  status: 'attended' | 'no_show',
  now: Date,
  version: number | null,
): Promise<number> {
  const [{ meta }] = (await env.DB.batch([
    setAttendance(env.DB, row.id, status, now.toISOString(), version),
    bookingEvent(env.DB, status === 'attended' ? 'booking.attended' : 'booking.no_show', row.id, {
      actor: admin,
      at: now,
      ifChanged: true,
    }),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: status === 'attended' ? 'booking.attended' : 'booking.no_show',
        target: { type: 'booking', id: row.id, name: bookingName(row.id) },
        before: { status: row.status },
        after: { status },
      },
      IF_CHANGED,
    ),
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
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'booking.noted',
        target: { type: 'booking', id: row.id, name: bookingName(row.id) },
        after: { note },
      },
      IF_CHANGED,
    ),
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
  const start = await env.DB.prepare('SELECT appointment_date, start_minute FROM bookings WHERE id = ?1')
    .bind(bookingId)
    .first<{ appointment_date: string; start_minute: number }>();
  const startsAt = start ? clinicInstant(env, start.appointment_date, start.start_minute) : new Date(0);
  return markBookingPaid(env.DB, bookingId, transactionId, startsAt);
}

/** The 'booking.paid' event: put it right after paidStatement (written only when that marked the booking paid). */
export const paidEvent = (env: Env, bookingId: string, transactionId: string, actor: Actor) =>
  bookingEvent(env.DB, 'booking.paid', bookingId, { actor, at: clock(), ifChanged: true, payload: { transactionId } });

/** Notes why a booking's last payment failed. */
export const paymentFailedStatement = (env: Env, bookingId: string, message: string) =>
  notePaymentFailure(env.DB, bookingId, message);

// Schedule changes.

export const RETRY_WITH_FORCE = 'send it again with "force": true';
export const RETRY_WITH_FORCE_QUERY = 'send it again with ?force=true';

export interface StrandOutcome {
  stranded: StrandedBooking[];
  /** With `cancel`: the bookings the change cancelled. */
  cancelled: StrandedBooking[];
  withdrawnOffers: WithdrawnOffer[];
  results: D1Result[];
}

/** What becomes of the bookings a forced change strands: kept for review (the default), or cancelled by `actor`. */
export interface StrandMode {
  force: boolean;
  retry: string;
  /** Cancel them instead, for this reason (the patients read it; paid ones are refunded). */
  cancel?: { actor: Actor; reason: string };
  /** Change nothing: answer (200, StrandDryRun) with the bookings the change would strand. */
  dryRun?: boolean;
  /** Who makes the change (the events of the bookings it strands name them). */
  actor?: Actor;
}

/**
 * Makes a schedule change (`write`, statements for one batch) unless it would strand upcoming
 * bookings: then 409 with them listed, unless `force` or `cancel`. In the change's own batch the
 * bookings it strands are cancelled (with `cancel`: each refunded and told why, as any cancellation
 * by the clinic) or kept, marked for the front desk's review, each patient told the clinic will call
 * (a booking stranded after they were read is kept so too); the open offers it invalidates are
 * withdrawn (their held time freed, their patients told). All are listed in the answer: nothing is
 * dropped in silence.
 */
export async function strand(
  env: Env,
  change: ScheduleChange,
  mode: StrandMode,
  write: D1PreparedStatement[],
): Promise<StrandOutcome> {
  const { force, retry, cancel, dryRun } = mode;
  const now = clock();
  // A treatment withdrawn keeps its bookings (they were booked while it was offered); only its offers go.
  const strandsBookings = change.kind !== 'treatment withdrawn';
  if (dryRun) {
    const { results } = strandsBookings
      ? await strandedBookings(env, change, now).all<StrandedRow>()
      : { results: [] as StrandedRow[] };
    const n = results.length;
    // Thrown, so that nothing after this point in the handler runs: the answer is the whole dry run.
    throw new HttpError(
      200,
      n === 0
        ? 'Nothing changed (a dry run): no upcoming booking would be affected'
        : `Nothing changed (a dry run): ${n} upcoming booking${n === 1 ? '' : 's'} would no longer fit the schedule`,
      {},
      { dryRun: true, stranded: results.map(toStranded) } satisfies Omit<StrandDryRun, 'acknowledged' | 'message'>,
    );
  }
  if (!force && !cancel && strandsBookings) {
    const { results } = await strandedBookings(env, change, now).all<StrandedRow>();
    if (results.length > 0) {
      const n = results.length;
      const details = { stranded: results.map(toStranded) } satisfies Omit<
        StrandedConflict,
        'acknowledged' | 'message'
      >;
      throw new HttpError(
        409,
        `${n} upcoming booking${n === 1 ? '' : 's'} would no longer fit the schedule (listed in "stranded"); ${retry} to make the change anyway and keep ${n === 1 ? 'it' : 'them'} for the front desk to rearrange`,
        {},
        details,
      );
    }
  }
  const toCancel = cancel && strandsBookings ? await strandedBookingRows(env, change, now) : [];
  const plans = cancel
    ? toCancel.map((row) =>
        cancelStatements(env, cancel.actor, row, { evenPaid: true, by: 'admin', note: cancel.reason, refund: true }),
      )
    : [];
  const cancelling = plans.flatMap((plan) => plan.statements);
  const atStrand = strandClock(env, now);
  const actor = cancel?.actor ?? mode.actor ?? { system: 'system' };
  const kept = strandsBookings
    ? [
        strandedBookings(env, change, now),
        strandedEvents(env.DB, change, atStrand, actor),
        markStranded(env.DB, change, atStrand),
      ]
    : [];
  const offers = [
    withdrawnOffersQuery(env, change, atStrand),
    withdrawnOfferEvents(env.DB, change, atStrand, actor),
    ...withdrawOffersStrandedBy(env.DB, change, atStrand),
  ];
  const all = await env.DB.batch([...cancelling, ...kept, ...offers, ...write]);
  let at = 0;
  const cancelled: StrandedBooking[] = [];
  for (const [i, plan] of plans.entries()) {
    const results = all.slice(at, at + plan.statements.length);
    const row = toCancel[i];
    if (row && plan.changed(results) > 0) cancelled.push(toStranded(row));
    at += plan.statements.length;
  }
  const found = strandsBookings ? all[cancelling.length] : undefined;
  const withdrawnResult = all[cancelling.length + kept.length];
  const results = all.slice(cancelling.length + kept.length + offers.length);
  const withdrawn = (withdrawnResult?.results ?? []) as WithdrawnOfferRow[];
  const stranded = ((found?.results ?? []) as StrandedRow[]).map(toStranded);
  return {
    stranded,
    cancelled,
    withdrawnOffers: withdrawn.map((o) => ({
      _id: o.id,
      treatment: o.treatment ?? '',
      date: o.day,
      appointmentDate: displayDate(o.day),
      slot: o.slot,
      patientName: o.patient_name,
      email: o.email,
    })),
    results,
  };
}

/**
 * The front desk keeps a booking waiting for review as it is (admin), with its audit row: it leaves
 * the review list and its reminders go out again. Answers how many changed (0: not waiting).
 */
export async function keep(env: Env, admin: Actor, row: BookingRow): Promise<number> {
  const [{ meta }] = (await env.DB.batch([
    clearReview(env.DB, row.id),
    bookingEvent(env.DB, 'booking.kept', row.id, { actor: admin, at: clock(), ifChanged: true }),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'booking.kept',
        target: { type: 'booking', id: row.id, name: bookingName(row.id) },
        before: { needsReview: true },
        after: { needsReview: false },
      },
      IF_CHANGED,
    ),
  ])) as [D1Result];
  return meta.changes;
}

interface WithdrawnOfferRow {
  id: string;
  treatment: string | null;
  day: string;
  slot: string;
  patient_name: string;
  email: string;
}

/** The open offers a change withdraws (read in its batch, before the withdrawal). */
function withdrawnOffersQuery(env: Env, change: ScheduleChange, clock: StrandClock): D1PreparedStatement {
  const { where, params } = offersStrandedWhere(change, clock);
  return env.DB.prepare(
    `SELECT o.id, t.name AS treatment, o.day, o.slot, u.name AS patient_name, u.email
     FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id JOIN users u ON u.id = w.user_id
       LEFT JOIN treatments t ON t.id = o.treatment_id
     WHERE ${where}
     ORDER BY o.day, o.start_minute`,
  ).bind(...params);
}

// The waitlist's offers.

const LINE_LIMIT = 200;
const OFFERS_PER_RUN = 50;

/** Marks a new hold's cells taken in a day read before it, so the next offer of the run looks elsewhere. */
function take(day: Day, resources: readonly string[], cells: { firstCell: number; lastCell: number }): void {
  for (const resource of resources) {
    const taken = day.taken.get(resource) ?? new Uint8Array(96);
    day.taken.set(resource, taken);
    for (let cell = cells.firstCell; cell <= cells.lastCell; cell++) taken[cell] = 1;
    day.load.set(resource, (day.load.get(resource) ?? 0) + cells.lastCell - cells.firstCell + 1);
  }
}

/**
 * Offers freed times to the waitlist at `now`: first closes the offers that expired, then, for each
 * entry in line (oldest first) without an open offer, the earliest free start of its treatment on
 * its dates that starts after the hold would end and was not offered to it before, held for its
 * doctor, chair and patient until the hold ends, under every placement rule (the patient's hold
 * limit counts it with their unpaid bookings), with the offer's mail in the same batch. Answers how
 * many offers it made.
 */
export async function offerFreedTimes(env: Env, now: Date): Promise<number> {
  await env.DB.batch(expireOffers(env.DB, now));
  const today = clinicNow(env, now).date;
  const line = await entriesInLine(env.DB, today, now, LINE_LIMIT);
  if (line.length === 0) return 0;
  const [offered, settings] = await Promise.all([
    pastOffers(
      env.DB,
      line.map((e) => e.id),
    ),
    messageSettings(env.DB),
  ]);
  const expiresAt = new Date(now.getTime() + settings.offer_hold_minutes * 60_000);
  const days = new Map<string, Day>();
  const maxUnpaid = holdRules(env).maxUnpaid;
  let made = 0;
  for (const entry of line) {
    if (made >= OFFERS_PER_RUN) break;
    if (await offerOne(env, entry, { today, now, expiresAt, offered, days, maxUnpaid })) made += 1;
  }
  return made;
}

type OfferRun = {
  today: string;
  now: Date;
  expiresAt: Date;
  offered: Set<string>;
  days: Map<string, Day>;
  maxUnpaid: number;
};

async function offerOne(
  env: Env,
  entry: { id: string; user_id: string; treatment_id: string; from_date: string; to_date: string },
  run: OfferRun,
): Promise<boolean> {
  const { now, expiresAt } = run;
  for (const date of datesBetween(entry.from_date, entry.to_date, MAX_WAITLIST_DAYS)) {
    if (date < run.today || bookingWindowProblem(env, date, now)) continue;
    let day = run.days.get(date);
    if (!day) {
      day = await readDay(env, date, now);
      run.days.set(date, day);
    }
    const treatment = day.treatments.find((t) => t.id === entry.treatment_id);
    if (treatment?.active !== 1) return false;
    const starts = freeStarts(env, day, treatment, firstBookableMinute(env, date, now)).filter(
      (start) =>
        clinicInstant(env, date, start).getTime() > expiresAt.getTime() &&
        !run.offered.has(offeredKey(entry.id, date, start)),
    );
    for (const start of starts) {
      const outcome = await holdForEntry(env, entry, { treatment, date, start, day, run });
      if (outcome === 'held') return true;
      if (outcome === 'stop') return false;
    }
  }
  return false;
}

/** Tries to hold `start` for an entry with each free pair: 'held', 'next' (try another start) or 'stop' (this entry gets nothing now). */
async function holdForEntry(
  env: Env,
  entry: { id: string; user_id: string },
  at: { treatment: TreatmentRow; date: string; start: number; day: Day; run: OfferRun },
): Promise<'held' | 'next' | 'stop'> {
  const { treatment, date, start, day, run } = at;
  const cells = cellsOf(start, treatment.duration_minutes);
  for (const pair of freePairs(day, treatment, start)) {
    const claim = claimOf(date, pair, entry.user_id, cells);
    const id = crypto.randomUUID();
    try {
      const [, , inserted] = await env.DB.batch([
        dropDeadClaims(env.DB, date, run.now),
        checkPlacement(env.DB, {
          treatmentId: treatment.id,
          day: date,
          startMinute: start,
          durationMinutes: treatment.duration_minutes,
          doctorId: pair.doctorId,
          chairId: pair.chairId,
          patientId: entry.user_id,
          priceCents: treatment.price_cents,
          maxUnpaid: run.maxUnpaid,
          now: run.now,
          startsAt: clinicInstant(env, date, start),
        }),
        ...insertOffer(
          env.DB,
          {
            id,
            entryId: entry.id,
            treatmentId: treatment.id,
            day: date,
            startMinute: start,
            durationMinutes: treatment.duration_minutes,
            slot: slotLabel(start, treatment.duration_minutes),
            doctorId: pair.doctorId,
            chairId: pair.chairId,
            expiresAt: run.expiresAt,
            now: run.now,
          },
          claim,
        ),
        offerEvent(env.DB, 'offer.made', id, { actor: { system: 'system' }, at: run.now, ifChanged: false }),
      ]);
      if ((inserted?.meta.changes ?? 0) === 0) return 'stop'; // the patient left the line meanwhile
    } catch (error) {
      const rule = brokenRule(error);
      if ((rule && PAIR_RULES.has(rule)) || violates(error, ONE_CLAIM_PER_CELL)) continue;
      if (rule === 'patient_busy') return 'next';
      if (rule === 'hold_limit' || violates(error, ONE_OPEN_OFFER)) return 'stop';
      if (rule) return 'next';
      throw error;
    }
    take(day, claim.resources, cells);
    return 'held';
  }
  return 'next';
}

/**
 * Accepts an open offer for its patient: books the held time in one batch whose placement check
 * makes sure the offer is still open and unexpired and that every rule still holds (a closure added
 * since, a doctor or chair deleted, the patient's own other visit): the booking, the offer closed,
 * the entry booked, the hold given up for the booking's claims, the confirmation. Of several
 * simultaneous accepts one books. Answers the booking's id.
 */
export async function accept(
  env: Env,
  patient: Patient,
  offer: OfferRow,
  treatment: { name: string },
): Promise<string> {
  const now = clock();
  const rules = holdRules(env);
  const priceCents = offer.price_cents ?? 0;
  const startsAt = clinicInstant(env, offer.day, offer.start_minute);
  const booking: NewBookingRow = {
    id: crypto.randomUUID(),
    treatmentId: offer.treatment_id,
    treatment: treatment.name,
    appointmentDate: offer.day,
    slot: offer.slot,
    startMinute: offer.start_minute,
    durationMinutes: offer.duration_minutes,
    doctorId: offer.doctor_id,
    chairId: offer.chair_id,
    userId: patient.id,
    patientName: patient.name,
    email: patient.email,
    phone: '',
    priceCents,
    createdAt: now.toISOString(),
    holdUntil: priceCents > 0 ? holdEnd(now, startsAt, rules).toISOString() : null,
  };
  const pair = { doctorId: offer.doctor_id, chairId: offer.chair_id };
  const claim = claimOf(offer.day, pair, patient.id, cellsOf(offer.start_minute, offer.duration_minutes));
  try {
    await env.DB.batch([
      ...releaseLapsedHoldsInTheWay(env.DB, { userId: patient.id, treatmentId: offer.treatment_id, claim }, now),
      releasedEvents(env.DB, now),
      dropDeadClaims(env.DB, offer.day, now),
      checkPlacement(env.DB, placementOf(booking, { maxUnpaid: rules.maxUnpaid, now, startsAt, offerId: offer.id })),
      insertBooking(env.DB, booking),
      ...acceptOffer(env.DB, offer.id, booking.id),
      insertClaims(env.DB, booking.id, claim),
      bookingEvent(env.DB, 'booking.placed', booking.id, {
        actor: asPatient(patient),
        at: now,
        offerId: offer.id,
        payload: { by: 'offer' },
      }),
    ]);
  } catch (error) {
    const context = { byClinic: false, isoDate: offer.day, treatment: treatment.name, maxUnpaid: rules.maxUnpaid };
    throw conflictOf(error, context) ?? error;
  }
  return booking.id;
}

/** Declines an open offer: its held time goes to the next in line. Answers whether it was open. */
export async function decline(env: Env, offerId: string): Promise<boolean> {
  const [, declined] = await env.DB.batch([
    ...declineOffer(env.DB, offerId),
    offerEvent(env.DB, 'offer.declined', offerId, { actor: { system: 'system' }, at: clock() }),
  ]);
  return (declined?.meta.changes ?? 0) > 0;
}

/** A patient leaves the line: their open offer is withdrawn in the same batch. Answers whether they were waiting. */
export async function leave(env: Env, entryId: string, userId: string): Promise<boolean> {
  const [left] = await env.DB.batch([
    leaveEntry(env.DB, entryId, userId),
    ...withdrawOffersOfEntry(env.DB, entryId),
    timeFreedEvent(env.DB, { system: 'system' }, clock(), { why: 'waitlist.left' }),
  ]);
  return (left?.meta.changes ?? 0) > 0;
}
