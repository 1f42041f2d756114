import useSWR from 'swr';
import type { AppointmentOption } from '../../../contract/appointments.ts';
import { apiFetcher } from './api.ts';
import { appointmentOptionsKey } from './cache-keys.ts';
import { isoDay } from './clinic-calendar.ts';

export type { AppointmentOption };

/** The product's display date (docs/product-reference.md#limits-and-constants: date-fns `PP`, e.g. "Nov 21, 2026"), as the API answers it beside the ISO date. */
export const APPOINTMENT_DATE_FORMAT = 'PP';

/**
 * GET /api/appointmentOptions?date=yyyy-MM-dd[&doctorId=] (no auth): every treatment with its free slots that day
 * (with a doctor: theirs). Free slots change as other patients book, so a visit to the page reuses a list for
 * seconds, not minutes. No date: nothing is asked.
 */
export function useAppointmentOptions(date: Date | null, doctorId: string | null = null) {
  return useSWR<AppointmentOption[]>(
    date ? appointmentOptionsKey(isoDay(date), doctorId) : null,
    apiFetcher<AppointmentOption[]>,
    {
      dedupingInterval: 10_000,
    },
  );
}

/**
 * A free time as the API lists it: its start, "10:00", which a booking sends back (`start`), and its label,
 * "10.00 AM - 10.30 AM", which a patient reads.
 */
export type FreeTime = { start: string; label: string };

/** The free times of an answer that lists them as `starts` and, in the same order, `slots`. */
export const freeTimes = (listed: { starts: string[]; slots: string[] }): FreeTime[] =>
  listed.starts.map((start, i) => ({ start, label: listed.slots[i] ?? start }));

/**
 * The free times of one treatment (by id) on a date, as GET /api/appointmentOptions lists them:
 * `times` is empty while loading, when the treatment is not offered, or when none is free.
 */
export function useFreeSlots(date: Date, treatmentId: string) {
  const { data, error, isLoading, mutate } = useAppointmentOptions(date);
  const option = data?.find((o) => o._id === treatmentId);
  return { option, options: data, times: option ? freeTimes(option) : [], error, isLoading, refresh: mutate };
}

/** Why the whole clinic is closed on the options' day (every treatment closed for the same reason), or null. */
export function clinicClosedOn(options: AppointmentOption[] | undefined): AppointmentOption['closed'] {
  const [first] = options ?? [];
  return first?.closed && options?.every((option) => option.closed?.reason === first.closed?.reason)
    ? first.closed
    : null;
}
