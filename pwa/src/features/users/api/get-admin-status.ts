import useSWR from 'swr';
import type { AdminStatus } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';

export const adminStatusKey = (email: string) => `/users/admin/${encodeURIComponent(email)}`;

/** GET /api/users/admin/:email. SPEC §4: not admin until the lookup has answered. */
export function useAdmin(email: string | null | undefined): { isAdmin: boolean; isAdminLoading: boolean } {
  const { data, error } = useSWR<AdminStatus>(email ? adminStatusKey(email) : null, apiFetcher);
  return { isAdmin: data?.isAdmin === true, isAdminLoading: Boolean(email) && data === undefined && !error };
}
