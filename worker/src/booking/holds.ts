import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { type HoursRow, weekHours } from '../clinic/data/clinic-hours.ts';
import type { TreatmentRow } from '../clinic/data/treatments.ts';
import { hasSavedCard } from '../people/data/cards.ts';
import { clinicInstant, clinicNow, weekdayOf } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';
import type { PaymentTerms } from './data/bookings.ts';

/** How long an unpaid booking of a priced treatment holds its slot, and how many a patient may hold. */
export interface HoldRules {
  maxUnpaid: number;
  hoursAfterBooking: number;
  hoursBeforeStart: number;
  minMinutes: number;
}

function whole(value: string | undefined, fallback: number): number {
  const parsed = /^\s*\d+\s*$/.test(value ?? '') ? Number(value) : Number.NaN;
  return Number.isSafeInteger(parsed) ? parsed : fallback;
}

/** The clinic's rules from wrangler.toml [vars]; a missing or malformed value takes its default. */
export function holdRules(
  env: Partial<
    Pick<Env, 'MAX_UNPAID_BOOKINGS' | 'HOLD_HOURS_AFTER_BOOKING' | 'HOLD_HOURS_BEFORE_START' | 'MIN_HOLD_MINUTES'>
  >,
): HoldRules {
  return {
    maxUnpaid: whole(env.MAX_UNPAID_BOOKINGS, 3),
    hoursAfterBooking: whole(env.HOLD_HOURS_AFTER_BOOKING, 24),
    hoursBeforeStart: whole(env.HOLD_HOURS_BEFORE_START, 12),
    minMinutes: whole(env.MIN_HOLD_MINUTES, 60),
  };
}

const HOUR = 60 * 60_000;

/**
 * When an unpaid booking made at `bookedAt` stops holding an appointment that starts at `startsAt`:
 * the earlier of `hoursAfterBooking` after booking and `hoursBeforeStart` before the start, but never
 * less than `minMinutes` after booking (a booking made shortly before still gets time to pay), and
 * never after the start.
 */
export function holdEnd(bookedAt: Date, startsAt: Date, rules: HoldRules, open?: OpenWeek): Date {
  const booked = bookedAt.getTime();
  const start = startsAt.getTime();
  const byRules = Math.min(booked + rules.hoursAfterBooking * HOUR, start - rules.hoursBeforeStart * HOUR);
  const end = new Date(Math.min(Math.max(byRules, booked + rules.minMinutes * 60_000), start));
  return open ? withinOpeningHours(open, end, new Date(booked + rules.minMinutes * 60_000)) : end;
}

/** The clinic's weekly opening hours (HoursRow per open weekday) and its clock, as deadlines need them. */
export interface OpenWeek {
  env: Env;
  week: readonly HoursRow[];
}

/** The clinic's week, read once for the deadlines of one change. */
export async function openWeek(env: Env): Promise<OpenWeek> {
  return { env, week: (await weekHours(env.DB).all<HoursRow>()).results };
}

/**
 * `deadline`, or, when it falls while the clinic is closed (at night, on a closed weekday), the
 * closing time of the last open day before it: a patient told "pay by" can still call the clinic
 * until then (issue 45). Unchanged when that would be before `notBefore` (the least time to pay) or
 * when no weekday is open.
 */
export function withinOpeningHours({ env, week }: OpenWeek, deadline: Date, notBefore: Date): Date {
  const { date, minute } = clinicNow(env, deadline);
  for (let back = 0; back < 8; back++) {
    const day = new Date(Date.parse(`${date}T12:00:00Z`) - back * 24 * HOUR).toISOString().slice(0, 10);
    const hours = week.find((h) => h.weekday === weekdayOf(day));
    if (!hours) continue;
    if (back === 0 && minute < hours.open_minute) continue; // before opening: the day before
    if (back === 0 && minute <= hours.close_minute) return deadline; // while open
    const closing = clinicInstant(env, day, hours.close_minute);
    return closing.getTime() >= notBefore.getTime() ? closing : deadline;
  }
  return deadline;
}

/** The deposit of a treatment: its share of the price, at least a cent and at most the price. */
export const depositOf = (t: Pick<TreatmentRow, 'price_cents' | 'deposit_percent'>): number =>
  Math.min(t.price_cents, Math.max(1, Math.round((t.price_cents * (t.deposit_percent ?? 100)) / 100)));

/**
 * The terms a booking of `treatment` for `patientId` is placed under, from the treatment's rule
 * (issue 45): 'full' and 'deposit' hold the time until `holdEnd` for the whole price or the deposit;
 * 'card' needs a card on file on the patient's account and takes the clinic's fees as they stand now; 'clinic'
 * holds nothing. Booked by the clinic to be paid there (`payAtClinic`), every rule is 'clinic'; a
 * card booking made by the clinic or through a waitlist offer is one too (nothing is charged that
 * the patient did not accept when booking), and a patient booking one without a card is refused (409).
 */
export async function paymentTerms(
  env: Env,
  treatment: Pick<TreatmentRow, 'price_cents' | 'payment' | 'deposit_percent'>,
  at: { now: Date; startsAt: Date; patientId: string; week: OpenWeek },
  options: { payAtClinic?: boolean; byPatient?: boolean } = {},
): Promise<PaymentTerms> {
  const none = { holdUntil: null, depositCents: null, noShowFeeCents: 0, lateCancelFeeCents: 0 };
  if (options.payAtClinic || treatment.price_cents <= 0) return { paymentRule: 'clinic', ...none };
  const hold = () => holdEnd(at.now, at.startsAt, holdRules(env), at.week).toISOString();
  switch (treatment.payment) {
    case 'full':
      return { paymentRule: 'full', ...none, holdUntil: hold() };
    case 'deposit':
      return { paymentRule: 'deposit', ...none, holdUntil: hold(), depositCents: depositOf(treatment) };
    case 'card': {
      // Only a patient booking it accepts the fees; one booked for them is paid at the clinic.
      if (!options.byPatient) return { paymentRule: 'clinic', ...none };
      if (!(await hasSavedCard(env.DB, at.patientId))) throw new HttpError(409, SAVE_A_CARD);
      const policy = await readPolicy(env.DB);
      return {
        paymentRule: 'card',
        ...none,
        noShowFeeCents: policy.noShowFee * 100,
        lateCancelFeeCents: policy.lateCancelFee * 100,
      };
    }
    default:
      return { paymentRule: 'clinic', ...none };
  }
}

export const SAVE_A_CARD = 'This treatment is booked with a card on file: save a card first (nothing is charged now)';
