import useSWR from 'swr';
import type { Specialty } from '../../../../../contract/appointments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { SPECIALTIES_KEY } from '../../../lib/cache-keys.ts';

export type { Specialty };

/** GET /api/appointmentSpecialty (anyone): the clinic's treatments, which are a doctor's possible specialties. */
export function useSpecialties() {
  return useSWR<Specialty[]>(SPECIALTIES_KEY, apiFetcher<Specialty[]>);
}
