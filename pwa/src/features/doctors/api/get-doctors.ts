import useSWR from 'swr';
import type { Doctor } from '../../../../../contract/doctors.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { DOCTORS_KEY } from '../../../lib/cache-keys.ts';

export type { Doctor };

/** GET /api/doctors (admin): every doctor, with the URL of their photo. */
export function useDoctors() {
  return useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
}
