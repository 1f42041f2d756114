import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { USERS_KEY } from '../../../lib/cache-keys.ts';

export type User = { _id: string; name: string; email: string; role: string };

/** GET /api/users (admin): every user. */
export function useUsers() {
  return useSWR<User[]>(USERS_KEY, apiFetcher<User[]>);
}
