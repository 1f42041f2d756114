import useSWR from 'swr';
import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { Closure, ClosureAdded, ClosureDeleted, NewClosure } from '../../../../../contract/clinic.ts';
import type { Doctor } from '../../../../../contract/doctors.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { CLOSURES_KEY, DOCTORS_KEY } from '../../../lib/cache-keys.ts';

export type { Closure, NewClosure };

/** GET /api/closures (admin): every closure, by its first day. */
export function useClosures() {
  return useSWR<Closure[]>(CLOSURES_KEY, apiFetcher<Closure[]>);
}

/** GET /api/doctors (admin): whom a closure can be for (the cache Manage Doctors reads too). */
export function useClosureDoctors() {
  return useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
}

/**
 * POST /api/closures (admin): one over upcoming bookings is refused (409, listing them) unless they
 * are kept or cancelled; 'ask' only lists them.
 */
export const addClosure = (closure: NewClosure, resolution: Resolution) =>
  api<ClosureAdded | StrandDryRun>(`/closures${changeQuery(resolution)}`, {
    method: 'POST',
    body: JSON.stringify(
      resolution === 'keep' || resolution === 'cancel' ? { ...closure, bookings: resolution } : closure,
    ),
  });
/** DELETE /api/closures/:id (admin): its days become bookable again. */
export const deleteClosure = (id: string) =>
  api<ClosureDeleted>(`/closures/${encodeURIComponent(id)}`, { method: 'DELETE' });
