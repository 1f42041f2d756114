import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';

export type User = { _id: string; name: string; email: string; role: string };

export const USERS_KEY = '/users';

/** GET /api/users (admin): every user. */
export function useUsers() {
  return useSWR<User[]>(USERS_KEY, apiFetcher<User[]>);
}
