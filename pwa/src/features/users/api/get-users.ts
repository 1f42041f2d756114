import useSWR from 'swr';
import type { User } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { USERS_KEY } from '../../../lib/cache-keys.ts';

export type { User };

/** GET /api/users (admin): every user. */
export function useUsers() {
  return useSWR<User[]>(USERS_KEY, apiFetcher<User[]>);
}
