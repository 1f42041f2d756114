import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';

export type Doctor = { _id: string; name: string; email: string; specialty: string; image: string };

export const DOCTORS_KEY = '/doctors';

/** GET /api/doctors (admin): every doctor, with the URL of their photo. */
export function useDoctors() {
  return useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
}
