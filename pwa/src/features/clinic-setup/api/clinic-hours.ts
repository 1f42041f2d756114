import useSWR from 'swr';
import type { HoursChange, OpeningHours } from '../../../../../contract/clinic.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { CLINIC_HOURS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { OpeningHours };

/** GET /api/clinic/hours: the week's opening hours; a weekday not listed is closed. */
export function useClinicHours() {
  return useSWR<OpeningHours[]>(CLINIC_HOURS_KEY, apiFetcher<OpeningHours[]>);
}

/**
 * PUT /api/clinic/hours (admin): the whole week. Hours that leave upcoming bookings outside them
 * are refused (409, listing them) unless kept; 'ask' only lists them.
 */
export const saveClinicHours = (hours: HoursChange['hours'], resolution: Resolution) =>
  client('PUT /clinic/hours', { query: changeQuery(resolution), body: { hours, force: resolution === 'keep' } });
