import { useCallback } from 'react';
import useSWR from 'swr';
import type { Dependant, NewDependant, Relationship } from '../../../../../contract/family.ts';
import { api } from '../../../lib/api.ts';
import { DEPENDANTS_PATH } from '../../../lib/api-paths.ts';
import { type MyFamilyKey, myFamilyKey } from '../../../lib/cache-keys.ts';

export type { Dependant, NewDependant, Relationship };

export const RELATIONSHIP_TEXT: Record<Relationship, string> = {
  child: 'Child',
  partner: 'Partner',
  parent: 'Parent',
  other: 'Other',
};

/** GET /api/users/me/dependants, with add and remove (each reloading the list). */
export function useDependants(email: string | null | undefined) {
  const swr = useSWR<Dependant[], unknown, MyFamilyKey | null>(email ? myFamilyKey(email) : null, () =>
    api<Dependant[]>(DEPENDANTS_PATH),
  );
  const { mutate } = swr;
  const add = useCallback(
    async (person: NewDependant) => {
      try {
        return await api<{ insertedId: string }>('/users/me/dependants', {
          method: 'POST',
          body: JSON.stringify(person),
        });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  const remove = useCallback(
    async (id: string) => {
      try {
        return await api(`/users/me/dependants/${encodeURIComponent(id)}`, { method: 'DELETE' });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  const invite = useCallback(
    async (id: string, email: string) => {
      try {
        return await api<{ message: string }>(`/users/me/dependants/${encodeURIComponent(id)}/invite`, {
          method: 'POST',
          body: JSON.stringify({ email }),
        });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  return { ...swr, add, remove, invite };
}
