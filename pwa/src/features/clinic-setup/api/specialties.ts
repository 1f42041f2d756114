import useSWR from 'swr';
import type { Specialty } from '../../../../../contract/appointments.ts';
import type { NewSpecialty, SpecialtyInUse } from '../../../../../contract/clinic.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { SPECIALTIES_IN_USE_KEY, SPECIALTIES_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { SpecialtyInUse };

/** GET /api/appointmentSpecialty (anyone): who may perform a treatment (the cache Add A Doctor reads too). */
export function useTreatmentSpecialties() {
  return useSWR<Specialty[]>(SPECIALTIES_KEY, apiFetcher<Specialty[]>);
}

/** GET /api/specialties (admin): each specialty with how many doctors and treatments have it. */
export function useSpecialtiesInUse() {
  return useSWR<SpecialtyInUse[]>(SPECIALTIES_IN_USE_KEY, apiFetcher<SpecialtyInUse[]>);
}

/** POST /api/specialties (admin); a name taken (any case) is refused (409). */
export const addSpecialty = (body: NewSpecialty) => client('POST /specialties', { body });
/** PUT /api/specialties/:id (admin). */
export const renameSpecialty = (id: string, body: NewSpecialty) =>
  client('PUT /specialties/:id', { params: { id }, body });
/** DELETE /api/specialties/:id (admin): refused (409) while a doctor or treatment has it. */
export const deleteSpecialty = (id: string) => client('DELETE /specialties/:id', { params: { id } });
