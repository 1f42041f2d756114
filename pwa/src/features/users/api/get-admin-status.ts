import useSWR from 'swr';
import type { AdminStatus } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { adminStatusKey } from '../../../lib/cache-keys.ts';

/** GET /api/users/admin/:email. docs/product.md#roles-and-access: not admin until the lookup has answered. */
export function useAdmin(email: string | null | undefined): { isAdmin: boolean; isAdminLoading: boolean } {
  const { data, error } = useSWR<AdminStatus>(email ? adminStatusKey(email) : null, apiFetcher);
  return { isAdmin: data?.isAdmin === true, isAdminLoading: Boolean(email) && data === undefined && !error };
}
