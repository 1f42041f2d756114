import useSWR from 'swr';
import type { Closure, NewClosure } from '../../../../../contract/clinic.ts';
import type { Doctor } from '../../../../../contract/doctors.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { CLOSURES_KEY, DOCTORS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

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
  client('POST /closures', {
    query: changeQuery(resolution),
    body: resolution === 'keep' || resolution === 'cancel' ? { ...closure, bookings: resolution } : closure,
  });
/** DELETE /api/closures/:id (admin): its days become bookable again. */
export const deleteClosure = (id: string) => client('DELETE /closures/:id', { params: { id } });
