import useSWR from 'swr';
import { USERS_PAGE_SIZE } from '../../../../../contract/pages.ts';
import type { User } from '../../../../../contract/users.ts';
import { clientAnswer } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

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
  const query = { q: q.trim() || null, page: String(page) };
  return useSWR<UsersPage>(
    pathOf('GET /users', { query }),
    async () => {
      const { body, headers } = await clientAnswer('GET /users', { query });
      return {
        users: body,
        total: Number(headers.get('X-Total-Count') ?? body.length),
        hasNext: /rel="next"/.test(headers.get('Link') ?? ''),
      };
    },
    { keepPreviousData: true },
  );
}
