import useSWR from 'swr';
import type { Deleted, Inserted, Modified } from '../../../../../contract/answers.ts';
import type { Specialty } from '../../../../../contract/appointments.ts';
import type { NewSpecialty, SpecialtyInUse } from '../../../../../contract/clinic.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { SPECIALTIES_IN_USE_KEY, SPECIALTIES_KEY } from '../../../lib/cache-keys.ts';

export type { SpecialtyInUse };

/** GET /api/appointmentSpecialty (anyone): who may perform a treatment (the cache Add A Doctor reads too). */
export function useTreatmentSpecialties() {
  return useSWR<Specialty[]>(SPECIALTIES_KEY, apiFetcher<Specialty[]>);
}

/** GET /api/specialties (admin): each specialty with how many doctors and treatments have it. */
export function useSpecialtiesInUse() {
  return useSWR<SpecialtyInUse[]>(SPECIALTIES_IN_USE_KEY, apiFetcher<SpecialtyInUse[]>);
}

const path = (id: string) => `/specialties/${encodeURIComponent(id)}`;
/** POST /api/specialties (admin); a name taken (any case) is refused (409). */
export const addSpecialty = (body: NewSpecialty) =>
  api<Inserted>('/specialties', { method: 'POST', body: JSON.stringify(body) });
/** PUT /api/specialties/:id (admin). */
export const renameSpecialty = (id: string, body: NewSpecialty) =>
  api<Modified>(path(id), { method: 'PUT', body: JSON.stringify(body) });
/** DELETE /api/specialties/:id (admin): refused (409) while a doctor or treatment has it. */
export const deleteSpecialty = (id: string) => api<Deleted>(path(id), { method: 'DELETE' });
