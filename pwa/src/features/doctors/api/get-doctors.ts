import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { DOCTORS_KEY } from '../../../lib/cache-keys.ts';

export type Doctor = { _id: string; name: string; email: string; specialty: string; image: string };

/** GET /api/doctors (admin): every doctor, with the URL of their photo. */
export function useDoctors() {
  return useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
}
