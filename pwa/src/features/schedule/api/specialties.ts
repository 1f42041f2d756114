import useSWR from 'swr';
import type { Specialty } from '../../../../../contract/appointments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { SPECIALTIES_KEY } from '../../../lib/cache-keys.ts';

/** GET /api/appointmentSpecialty (anyone): who may perform a treatment (the cache Add A Doctor reads too). */
export function useTreatmentSpecialties() {
  return useSWR<Specialty[]>(SPECIALTIES_KEY, apiFetcher<Specialty[]>);
}
