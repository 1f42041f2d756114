import useSWR from 'swr';
import type { BookingRules } from '../../../contract/policy.ts';
import { apiFetcher } from './api.ts';
import { POLICY_KEY } from './cache-keys.ts';
import { CLINIC_TIME_ZONE } from './clinic-time-zone.ts';

export type { BookingRules };

/**
 * GET /api/clinic/policy (docs/product-booking.md#cancellation-policy): until how many hours before the
 * start a paid booking is cancelled online and refunded, and a booking rescheduled online; how long
 * an unpaid booking holds its time.
 */
export function useBookingRules() {
  return useSWR<BookingRules>(POLICY_KEY, apiFetcher<BookingRules>);
}

/** Made once: a formatter with a time zone costs milliseconds to make on a phone, and each row uses it. */
let momentFormat: Intl.DateTimeFormat | undefined;

/** e.g. "Nov 22, 3:00 PM", on the clinic's clock like the appointment times. */
export function clinicMomentText(moment: string | number | Date): string {
  momentFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: CLINIC_TIME_ZONE,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return momentFormat.format(new Date(moment));
}

const HOUR = 3_600_000;

/** The deadlines of a booking starting at `startsAt` under `rules`, as a booking answer carries them. */
export function deadlinesOf(
  startsAt: Date,
  rules: Pick<BookingRules, 'freeCancellationHours' | 'rescheduleCutoffHours'>,
): { freeCancellationUntil: string; rescheduleUntil: string } {
  return {
    freeCancellationUntil: new Date(startsAt.getTime() - rules.freeCancellationHours * HOUR).toISOString(),
    rescheduleUntil: new Date(startsAt.getTime() - rules.rescheduleCutoffHours * HOUR).toISOString(),
  };
}

/**
 * The cancellation policy of one booking in one sentence, e.g. "Free cancellation until Nov 29,
 * 9:00 AM; reschedule online until Nov 30, 9:00 AM." A deadline passed says whom to call.
 */
export function policySentence(
  deadlines: { freeCancellationUntil: string; rescheduleUntil: string },
  now = Date.now(),
): string {
  const cancel =
    Date.parse(deadlines.freeCancellationUntil) > now
      ? `Free cancellation until ${clinicMomentText(deadlines.freeCancellationUntil)}`
      : `Free cancellation ended ${clinicMomentText(deadlines.freeCancellationUntil)}`;
  const move =
    Date.parse(deadlines.rescheduleUntil) > now
      ? `reschedule online until ${clinicMomentText(deadlines.rescheduleUntil)}`
      : 'to reschedule, call the clinic';
  return `${cancel}; ${move}.`;
}

/** How long an unpaid booking holds its time, before it is booked: "Pay within 24 hours (at the latest 12 hours before the visit), or the time is released." */
export function holdSentence(rules: Pick<BookingRules, 'unpaidHoldHours' | 'unpaidHoldHoursBeforeStart'>): string {
  const plural = (n: number) => `${n} hour${n === 1 ? '' : 's'}`;
  return `Pay within ${plural(rules.unpaidHoldHours)} of booking (at the latest ${plural(rules.unpaidHoldHoursBeforeStart)} before the visit), or the time is released.`;
}

/** An unpaid booking's deadline: "Pay by Nov 22, 3:00 PM, or the time is released." */
export const payBySentence = (payBy: string) => `Pay by ${clinicMomentText(payBy)}, or the time is released.`;
