/**
 * The booking engine (issue 23): the one module that changes bookings, their claims and waitlist
 * offers (only its modules, in this folder, import booking/data/writes.ts), one module per operation. A booking is placed (by its patient, by the front
 * desk, by accepting an offer), moved, cancelled, released when its hold ends, stranded by a
 * schedule change; an offer is made, accepted, declined, expires or is withdrawn. Each change is one
 * `db.batch()` holding the change, its audit row and its domain event (docs/architecture.md#domain-events).
 *
 * Every placement re-checks every rule of the day inside its own batch (checkPlacement, migration
 * 0011's placement_checks): hours, closures, the doctor's days, hours and specialty, the chair, the
 * treatment being active, who holds the cells (the doctor, the chair and the patient each claim
 * them), and the hold limit counting unpaid bookings and open offers. A rule that fails aborts the
 * batch; `conflictOf` turns it into one plain sentence.
 */
import { displayDate } from '../../platform/clinic-time.ts';
import { violates } from '../../platform/data/unique-constraint.ts';
import { HttpError } from '../../platform/http.ts';
import { ONE_BOOKING_PER_PATIENT } from '../data/bookings.ts';
import { ONE_CLAIM_PER_CELL } from '../data/writes.ts';
import type { Pair } from '../schedule.ts';

// One wording per conflict.
export const TAKEN = 'This slot was just booked; please choose another one';

export const CHANGED = 'This booking was changed meanwhile (paid, cancelled or moved); please reload and try again';

export const STARTED = 'This slot has already started';

export const unpaidLimitMessage = (limit: number, byClinic = false) =>
  byClinic
    ? `This patient already has ${limit} unpaid appointment${limit === 1 ? '' : 's'} to pay online; book this one to be paid at the clinic, or give a reason to go past the limit`
    : `You already have ${limit} unpaid appointment${limit === 1 ? '' : 's'}; pay or cancel one before booking another`;

export const notOffered = (name: string) => `${name} is no longer offered; please choose another treatment`;

export const alreadyBooked = (isoDate: string, byClinic: boolean) =>
  `${byClinic ? 'This patient already has' : 'You already have'} a booking on ${displayDate(isoDate)}`;

export const patientBusy = (byClinic: boolean) =>
  `${byClinic ? 'This patient already has' : 'You already have'} another appointment at this time; please choose another one`;

export const CLINIC_CLOSED = 'The clinic is no longer open at this time; please choose another one';

/** The rules of the database's placement check (migration 0011), as the engine names them. */
export type Rule =
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
export const PAIR_RULES: ReadonlySet<Rule> = new Set([
  'doctor_unavailable',
  'chair_missing',
  'doctor_taken',
  'chair_taken',
]);

export interface ConflictContext {
  byClinic: boolean;
  isoDate: string;
  treatment: string;
  maxUnpaid: number;
}

/** The plain 409 of a refused placement (null: not a rule of placements). */
export function conflictOf(error: unknown, context: ConflictContext): HttpError | null {
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
export async function firstPairThatHolds<T>(
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
