import useSWR from 'swr';
import type { BookingRules } from '../../../contract/policy.ts';
import { apiFetcher } from './api.ts';
import { POLICY_KEY } from './cache-keys.ts';
import { CLINIC_TIME_ZONE } from './clinic-time-zone.ts';
import type { Translate } from './i18n.tsx';

export type { BookingRules };

/**
 * GET /api/clinic/policy (docs/product-booking.md#cancellation-policy): until how many hours before the
 * start a paid booking is cancelled online and refunded, and a booking rescheduled online; how long
 * an unpaid booking holds its time.
 */
export function useBookingRules() {
  return useSWR<BookingRules>(POLICY_KEY, apiFetcher<BookingRules>);
}

/** Made once per language: a formatter with a time zone costs milliseconds to make on a phone, and each row uses it. */
const momentFormats = new Map<string, Intl.DateTimeFormat>();

/** e.g. "Nov 22, 3:00 PM" (en-US), "22 nov, 15:00" (es), on the clinic's clock like the appointment times. */
export function clinicMomentText(moment: string | number | Date, locale = 'en-US'): string {
  let format = momentFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: CLINIC_TIME_ZONE,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    momentFormats.set(locale, format);
  }
  return format.format(new Date(moment));
}

/** What a sentence of a page needs: its words and its locale (lib/i18n.tsx, `useLanguage()`). */
export type Words = { t: Translate; locale: string };

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
  { t, locale }: Words,
  now = Date.now(),
): string {
  const cancelBy = clinicMomentText(deadlines.freeCancellationUntil, locale);
  const moveBy = clinicMomentText(deadlines.rescheduleUntil, locale);
  const cancel = Date.parse(deadlines.freeCancellationUntil) > now ? 'open' : 'ended';
  const move = Date.parse(deadlines.rescheduleUntil) > now ? 'open' : 'ended';
  return t('policy.sentence', { cancel, cancelBy, move, moveBy });
}

/** How long an unpaid booking holds its time, before it is booked: "Pay within 24 hours (at the latest 12 hours before the visit), or the time is released." */
export function holdSentence(
  rules: Pick<BookingRules, 'unpaidHoldHours' | 'unpaidHoldHoursBeforeStart'>,
  { t }: Pick<Words, 't'>,
): string {
  return t('policy.hold', { hours: rules.unpaidHoldHours, before: rules.unpaidHoldHoursBeforeStart });
}

/** An unpaid booking's deadline: "Pay by Nov 22, 3:00 PM, or the time is released." */
export const payBySentence = (payBy: string, { t, locale }: Words) =>
  t('policy.payBy', { when: clinicMomentText(payBy, locale) });
