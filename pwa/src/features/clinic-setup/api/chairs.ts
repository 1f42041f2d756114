import useSWR from 'swr';
import type { Chair, NewChair } from '../../../../../contract/clinic.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { CHAIRS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { Chair };

/** GET /api/chairs (admin). */
export function useChairs() {
  return useSWR<Chair[]>(CHAIRS_KEY, apiFetcher<Chair[]>);
}

/** POST /api/chairs (admin); a name already taken is refused (409). */
export const addChair = (chair: NewChair) => client('POST /chairs', { body: chair });
/** PUT /api/chairs/:id (admin): a new name; a name another chair has is refused (409). */
export const renameChair = (id: string, chair: NewChair) => client('PUT /chairs/:id', { params: { id }, body: chair });
/** DELETE /api/chairs/:id (admin): a chair with upcoming bookings is refused (409, listing them) unless kept; 'ask' only lists them. */
export const deleteChair = (id: string, resolution: Resolution) =>
  client('DELETE /chairs/:id', { params: { id }, query: changeQuery(resolution, { forceInQuery: true }) });
