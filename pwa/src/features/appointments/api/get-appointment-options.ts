import { format } from 'date-fns/format';
import useSWR from 'swr';
import type { AppointmentOption } from '../../../../../contract/appointments.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { AppointmentOption };

/** The spec's date format (date-fns `PP`, e.g. "Nov 21, 2026"), as the API takes and answers it. */
export const APPOINTMENT_DATE_FORMAT = 'PP';

/** Every cached list of options starts with this; bookings and cancellations invalidate them all. */
export const APPOINTMENT_OPTIONS_KEY_PREFIX = '/appointmentOptions';

export function appointmentOptionsKey(date: Date): string {
  return `${APPOINTMENT_OPTIONS_KEY_PREFIX}?date=${encodeURIComponent(format(date, APPOINTMENT_DATE_FORMAT))}`;
}

/**
 * GET /api/appointmentOptions?date={PP} (no auth): every treatment with its free slots that day.
 * Free slots change as other patients book, so a visit to the page reuses a list for seconds, not minutes.
 */
export function useAppointmentOptions(date: Date) {
  return useSWR<AppointmentOption[]>(appointmentOptionsKey(date), apiFetcher<AppointmentOption[]>, {
    dedupingInterval: 10_000,
  });
}
