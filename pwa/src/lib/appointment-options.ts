import { format } from 'date-fns/format';
import useSWR from 'swr';
import type { AppointmentOption } from '../../../contract/appointments.ts';
import { apiFetcher } from './api.ts';
import { appointmentOptionsKey } from './cache-keys.ts';

export type { AppointmentOption };

/** The product's date format (docs/product-reference.md#limits-and-constants: date-fns `PP`, e.g. "Nov 21, 2026"), as the API takes and answers it. */
export const APPOINTMENT_DATE_FORMAT = 'PP';

/**
 * GET /api/appointmentOptions?date={PP}[&doctorId=] (no auth): every treatment with its free slots that day
 * (with a doctor: theirs). Free slots change as other patients book, so a visit to the page reuses a list for
 * seconds, not minutes. No date: nothing is asked.
 */
export function useAppointmentOptions(date: Date | null, doctorId: string | null = null) {
  return useSWR<AppointmentOption[]>(
    date ? appointmentOptionsKey(format(date, APPOINTMENT_DATE_FORMAT), doctorId) : null,
    apiFetcher<AppointmentOption[]>,
    {
      dedupingInterval: 10_000,
    },
  );
}

/**
 * The free times of one treatment (by id) on a date, as GET /api/appointmentOptions lists them:
 * `slots` is empty while loading, when the treatment is not offered, or when none is free.
 */
export function useFreeSlots(date: Date, treatmentId: string) {
  const { data, error, isLoading, mutate } = useAppointmentOptions(date);
  const option = data?.find((o) => o._id === treatmentId);
  return { option, options: data, slots: option?.slots ?? [], error, isLoading, refresh: mutate };
}

/** Why the whole clinic is closed on the options' day (every treatment closed for the same reason), or null. */
export function clinicClosedOn(options: AppointmentOption[] | undefined): AppointmentOption['closed'] {
  const [first] = options ?? [];
  return first?.closed && options?.every((option) => option.closed?.reason === first.closed?.reason)
    ? first.closed
    : null;
}
