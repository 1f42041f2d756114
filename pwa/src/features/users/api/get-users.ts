import useSWR from 'swr';
import { USERS_PAGE_SIZE } from '../../../../../contract/pages.ts';
import type { User } from '../../../../../contract/users.ts';
import { apiAnswer } from '../../../lib/api.ts';
import { USERS_KEY } from '../../../lib/cache-keys.ts';

export type { User };
export { USERS_PAGE_SIZE };

/** One page of users: who, how many match in all, and whether another page follows. */
export type UsersPage = { users: User[]; total: number; hasNext: boolean };

/**
 * GET /api/users?q=&page= (admin): the users whose name or email contains `q`, by name, a page at
 * a time; the total and the next page come in the answer's headers. The previous page stays on
 * screen while the next one loads.
 */
export function useUsers(q: string, page: number) {
  const query = new URLSearchParams({ ...(q.trim() ? { q: q.trim() } : {}), page: String(page) });
  return useSWR<UsersPage>(
    `${USERS_KEY}?${query}`,
    async (path: string) => {
      const { body, headers } = await apiAnswer<User[]>(path);
      return {
        users: body,
        total: Number(headers.get('X-Total-Count') ?? body.length),
        hasNext: /rel="next"/.test(headers.get('Link') ?? ''),
      };
    },
    { keepPreviousData: true },
  );
}
