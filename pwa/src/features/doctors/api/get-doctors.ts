import useSWR from 'swr';
import type { Doctor } from '../../../../../contract/doctors.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { Doctor };

export const DOCTORS_KEY = '/doctors';

/** GET /api/doctors (admin): every doctor, with the URL of their photo. */
export function useDoctors() {
  return useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
}
