import type { Env } from '../platform/env.ts';

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
export function holdEnd(bookedAt: Date, startsAt: Date, rules: HoldRules): Date {
  const booked = bookedAt.getTime();
  const start = startsAt.getTime();
  const byRules = Math.min(booked + rules.hoursAfterBooking * HOUR, start - rules.hoursBeforeStart * HOUR);
  return new Date(Math.min(Math.max(byRules, booked + rules.minMinutes * 60_000), start));
}
