import useSWR from 'swr';
import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { HoursChange, HoursSaved, OpeningHours } from '../../../../../contract/clinic.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { CLINIC_HOURS_KEY } from '../../../lib/cache-keys.ts';

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
  api<HoursSaved | StrandDryRun>(`/clinic/hours${changeQuery(resolution)}`, {
    method: 'PUT',
    body: JSON.stringify({ hours, force: resolution === 'keep' } satisfies HoursChange),
  });
