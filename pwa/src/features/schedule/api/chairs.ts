import useSWR from 'swr';
import type { Modified } from '../../../../../contract/answers.ts';
import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { Chair, ChairAdded, ChairDeleted, NewChair } from '../../../../../contract/clinic.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { CHAIRS_KEY } from '../../../lib/cache-keys.ts';

export type { Chair };

/** GET /api/chairs (admin). */
export function useChairs() {
  return useSWR<Chair[]>(CHAIRS_KEY, apiFetcher<Chair[]>);
}

/** POST /api/chairs (admin); a name already taken is refused (409). */
export const addChair = (chair: NewChair) =>
  api<ChairAdded>('/chairs', { method: 'POST', body: JSON.stringify(chair) });
/** PUT /api/chairs/:id (admin): a new name; a name another chair has is refused (409). */
export const renameChair = (id: string, chair: NewChair) =>
  api<Modified>(`/chairs/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(chair) });
/** DELETE /api/chairs/:id (admin): a chair with upcoming bookings is refused (409, listing them) unless kept; 'ask' only lists them. */
export const deleteChair = (id: string, resolution: Resolution) =>
  api<ChairDeleted | StrandDryRun>(
    `/chairs/${encodeURIComponent(id)}${changeQuery(resolution, { forceInQuery: true })}`,
    {
      method: 'DELETE',
    },
  );
