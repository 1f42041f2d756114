import useSWR from 'swr';
import type { AdminStatus } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { adminStatusKey } from '../../../lib/cache-keys.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { storedAccessClaims } from '../../../lib/stored-access-token.ts';

/**
 * GET /api/users/admin/:email. docs/product.md#roles-and-access: not admin until the lookup has
 * answered. With no network (the front desk offline), the role this device's session was last
 * given decides which screens open; they show only what this device kept, and the Worker checks
 * every call that follows.
 */
export function useAdmin(email: string | null | undefined): { isAdmin: boolean; isAdminLoading: boolean } {
  const { data, error } = useSWR<AdminStatus>(email ? adminStatusKey(email) : null, apiFetcher);
  const claims = isNetworkFailure(error) ? storedAccessClaims() : null;
  const offlineAdmin = claims?.role === 'admin' && claims.email.toLowerCase() === email?.toLowerCase();
  return {
    isAdmin: data?.isAdmin === true || offlineAdmin,
    isAdminLoading: Boolean(email) && data === undefined && !error,
  };
}
