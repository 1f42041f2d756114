import useSWR from 'swr';
import type { NewTreatment, Treatment, TreatmentChanges } from '../../../../../contract/treatments.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { TREATMENTS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { NewTreatment, Treatment };

/** GET /api/treatments (admin): every treatment, offered or not. */
export function useTreatments() {
  return useSWR<Treatment[]>(TREATMENTS_KEY, apiFetcher<Treatment[]>);
}

/** POST /api/treatments (admin); a name already taken is refused (409). */
export const addTreatment = (treatment: NewTreatment) => client('POST /treatments', { body: treatment });
/** PUT /api/treatments/:id (admin): the fields sent change; bookings already made keep theirs. */
export const updateTreatment = (id: string, changes: TreatmentChanges) =>
  client('PUT /treatments/:id', { params: { id }, body: changes });
/** DELETE /api/treatments/:id (admin): one with upcoming bookings is deactivated instead, as the answer's message says. */
export const deleteTreatment = (id: string) => client('DELETE /treatments/:id', { params: { id } });
