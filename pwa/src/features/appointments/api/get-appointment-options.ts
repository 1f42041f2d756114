import { format } from 'date-fns/format';
import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { appointmentOptionsKey } from '../../../lib/cache-keys.ts';

/** docs/product.md#entities appointment option: a treatment with its still-free slots on one date, price in dollars. */
export type AppointmentOption = {
  _id: string;
  name: string;
  slots: string[];
  price: number;
};

/** The product's date format (docs/product.md#limits-and-constants: date-fns `PP`, e.g. "Nov 21, 2026"), as the API takes and answers it. */
export const APPOINTMENT_DATE_FORMAT = 'PP';

/**
 * GET /api/appointmentOptions?date={PP} (no auth): every treatment with its free slots that day.
 * Free slots change as other patients book, so a visit to the page reuses a list for seconds, not minutes.
 */
export function useAppointmentOptions(date: Date) {
  return useSWR<AppointmentOption[]>(appointmentOptionsKey(format(date, APPOINTMENT_DATE_FORMAT)), apiFetcher<AppointmentOption[]>, {
    dedupingInterval: 10_000,
  });
}
