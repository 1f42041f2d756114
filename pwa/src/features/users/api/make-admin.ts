import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { AdminMade } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';
import { isUsersKey } from '../../../lib/cache-keys.ts';

/** PUT /api/users/admin/:id (admin): modifiedCount 0 with a message when the user already is one. */
export function makeAdmin(id: string): Promise<AdminMade> {
  return api<AdminMade>(`/users/admin/${encodeURIComponent(id)}`, { method: 'PUT' });
}

/** Makes the user an admin; when the role changed, the users list is reloaded before this resolves. */
export function useMakeAdmin() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string): Promise<AdminMade> => {
      const result = await makeAdmin(id);
      if (result.modifiedCount > 0) await mutate(isUsersKey);
      return result;
    },
    [mutate],
  );
}
