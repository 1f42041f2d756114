import useSWR from 'swr';
import type {
  NewTreatment,
  Treatment,
  TreatmentAdded,
  TreatmentChanges,
  TreatmentDeleted,
  TreatmentUpdated,
} from '../../../../../contract/treatments.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { TREATMENTS_KEY } from '../../../lib/cache-keys.ts';

export type { NewTreatment, Treatment };

/** GET /api/treatments (admin): every treatment, offered or not. */
export function useTreatments() {
  return useSWR<Treatment[]>(TREATMENTS_KEY, apiFetcher<Treatment[]>);
}

const treatmentPath = (id: string) => `/treatments/${encodeURIComponent(id)}`;

/** POST /api/treatments (admin); a name already taken is refused (409). */
export const addTreatment = (treatment: NewTreatment) =>
  api<TreatmentAdded>('/treatments', { method: 'POST', body: JSON.stringify(treatment) });
/** PUT /api/treatments/:id (admin): the fields sent change; bookings already made keep theirs. */
export const updateTreatment = (id: string, changes: TreatmentChanges) =>
  api<TreatmentUpdated>(treatmentPath(id), { method: 'PUT', body: JSON.stringify(changes) });
/** DELETE /api/treatments/:id (admin): one with upcoming bookings is deactivated instead, as the answer's message says. */
export const deleteTreatment = (id: string) => api<TreatmentDeleted>(treatmentPath(id), { method: 'DELETE' });
