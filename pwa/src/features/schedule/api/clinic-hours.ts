import useSWR from 'swr';
import type { HoursChange, HoursSaved, OpeningHours } from '../../../../../contract/clinic.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { CLINIC_HOURS_KEY } from '../../../lib/cache-keys.ts';

export type { OpeningHours };

/** GET /api/clinic/hours: the week's opening hours; a weekday not listed is closed. */
export function useClinicHours() {
  return useSWR<OpeningHours[]>(CLINIC_HOURS_KEY, apiFetcher<OpeningHours[]>);
}

/**
 * PUT /api/clinic/hours (admin): the whole week. Hours that leave upcoming bookings outside them
 * are refused (409, listing them) unless `force`.
 */
export const saveClinicHours = (change: HoursChange) =>
  api<HoursSaved>('/clinic/hours', { method: 'PUT', body: JSON.stringify(change) });
