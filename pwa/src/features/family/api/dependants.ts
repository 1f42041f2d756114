import { useCallback } from 'react';
import useSWR from 'swr';
import type { Dependant, NewDependant, Relationship } from '../../../../../contract/family.ts';
import { type MyFamilyKey, myFamilyKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { Dependant, NewDependant, Relationship };

/** Who a person in the family is to the account holder, as the form offers them (the words: the catalogs'). */
export const RELATIONSHIPS: readonly Relationship[] = ['child', 'partner', 'parent', 'other'];

/** GET /api/users/me/dependants, with add and remove (each reloading the list). */
export function useDependants(email: string | null | undefined) {
  const swr = useSWR<Dependant[], unknown, MyFamilyKey | null>(email ? myFamilyKey(email) : null, () =>
    client('GET /users/me/dependants'),
  );
  const { mutate } = swr;
  const add = useCallback(
    async (person: NewDependant) => {
      try {
        return await client('POST /users/me/dependants', { body: person });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  const remove = useCallback(
    async (id: string) => {
      try {
        return await client('DELETE /users/me/dependants/:id', { params: { id } });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  const invite = useCallback(
    async (id: string, email: string) => {
      try {
        return await client('POST /users/me/dependants/:id/invite', { params: { id }, body: { email } });
      } finally {
        await mutate();
      }
    },
    [mutate],
  );
  return { ...swr, add, remove, invite };
}
