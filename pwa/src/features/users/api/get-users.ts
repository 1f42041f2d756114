import useSWR from 'swr';
import type { User } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { User };

export const USERS_KEY = '/users';

/** GET /api/users (admin): every user. */
export function useUsers() {
  return useSWR<User[]>(USERS_KEY, apiFetcher<User[]>);
}
