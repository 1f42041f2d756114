import { type ReactNode, useEffect } from 'react';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { useT } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useSendToLogin } from './use-send-to-login.ts';

/** docs/product.md#guards, signed-in pages: a progress bar while auth loads, the page for a user with an email, else /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading, restoreSession } = useSession();
  const sendToLogin = useSendToLogin();
  const allowed = Boolean(user?.email);
  const framed = !useHydrated();
  const t = useT();

  useEffect(() => {
    void restoreSession();
  }, [restoreSession]);

  useEffect(() => {
    if (!loading && !allowed) sendToLogin();
  }, [loading, allowed, sendToLogin]);

  // At build time: the page's frame (nobody is signed in there, so no one's data can be in it).
  if (framed) return children;
  if (loading) return <ProgressBar label={t('common.loadingAccount')} />;
  return allowed ? children : null;
}
