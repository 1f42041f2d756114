import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Deleted } from '../../../../../contract/answers.ts';
import { api } from '../../../lib/api.ts';
import { isUsersKey } from '../../../lib/cache-keys.ts';

/** DELETE /api/users/:id (admin); the server refuses an admin's own account. */
export function deleteUser(id: string): Promise<Deleted> {
  return api(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Deletes the user; the users list is reloaded before this resolves. */
export function useDeleteUser() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string) => {
      const result = await deleteUser(id);
      await mutate(isUsersKey);
      return result;
    },
    [mutate],
  );
}
