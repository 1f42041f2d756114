import { type ReactNode, useEffect } from 'react';
import { Spinner } from '../../components/spinner.tsx';
import { useAdmin } from '../../features/users/api/get-admin-status.ts';
import { useSession } from '../../lib/session.tsx';
import { useSendToLogin } from './use-send-to-login.ts';

/** docs/product.md#guards, admin pages: a spinner while auth or the admin check runs, the page for an admin, else /login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, loading, restoreSession } = useSession();
  const { isAdmin, isAdminLoading } = useAdmin(loading ? null : user?.email);
  const sendToLogin = useSendToLogin();
  const pending = loading || isAdminLoading;
  const allowed = Boolean(user) && isAdmin;

  useEffect(() => {
    void restoreSession();
  }, [restoreSession]);

  useEffect(() => {
    // A signed-in patient is sent to /login too (the spec's redirect), told the page is for staff.
    if (!pending && !allowed) sendToLogin(user ? 'staff-only' : undefined);
  }, [pending, allowed, user, sendToLogin]);

  if (pending) return <Spinner label="Checking your access" />;
  return allowed ? children : null;
}
