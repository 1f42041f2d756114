import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { SWRConfig, type SWRConfiguration, useSWRConfig } from 'swr';
import { forgetSavedBookingsOnSignOut } from '../features/bookings/forget-saved-bookings.ts';
import { forgetSavedFormsOnSignOut } from '../features/forms/forget-saved-forms.ts';
import { forgetSavedScheduleOnSignOut } from '../features/schedule/forget-saved-schedule.ts';
import { apiFetcher } from '../lib/api.ts';
import { ApiError } from '../lib/http.ts';
import { setCacheForInvalidation } from '../lib/invalidation.ts';
import { MAX_VISIBLE_TOASTS, messagesAsked, onFirstMessage } from '../lib/notify.ts';
import { SessionProvider, type SessionUser } from '../lib/session.tsx';

// docs/product-reference.md#limits-and-constants: data is kept 5 minutes; a failed query is retried three times with doubling delay capped at 30 s.
export const swrConfig: SWRConfiguration = {
  fetcher: apiFetcher,
  dedupingInterval: 5 * 60 * 1000,
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount > 3) return;
    setTimeout(() => revalidate({ retryCount }), Math.min(1000 * 2 ** (retryCount - 1), 30_000));
  },
};

// Whatever page the user signs out from, their bookings, forms and schedule kept for offline use go with them.
forgetSavedBookingsOnSignOut();
forgetSavedFormsOnSignOut();
forgetSavedScheduleOnSignOut();

/**
 * sonner's Toaster, mounted with the first message: no page needs it before (see notify.ts). Its code is fetched
 * when the browser is idle (or with that message), so the first message shows at once.
 */
function Notifications() {
  const asked = useSyncExternalStore(onFirstMessage, messagesAsked, () => false);
  const [sonner, setSonner] = useState<typeof import('sonner') | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      import('sonner').then(
        (module) => live && setSonner(module),
        (cause: unknown) => console.error(cause),
      );
    if (asked) void load();
    else if (typeof requestIdleCallback !== 'undefined') {
      const idle = requestIdleCallback(() => void load(), { timeout: 10_000 });
      return () => {
        live = false;
        cancelIdleCallback(idle);
      };
    }
    return () => {
      live = false;
    };
  }, [asked]);
  if (!asked || !sonner) return null;
  const { Toaster } = sonner;
  return <Toaster visibleToasts={MAX_VISIBLE_TOASTS} richColors closeButton position="top-center" />;
}

/** Hands the app's SWR cache to invalidation.ts, which every write refreshes through. */
function CacheForInvalidation() {
  setCacheForInvalidation(useSWRConfig().mutate);
  return null;
}

/** `fromSavedSession`, `renderedFor`: see SessionProvider (start.tsx sets the first when the page is rendered, not hydrated). */
export function AppProvider({
  children,
  swr,
  fromSavedSession,
  renderedFor,
}: {
  children: ReactNode;
  swr?: SWRConfiguration;
  fromSavedSession?: boolean;
  renderedFor?: SessionUser;
}) {
  return (
    <SWRConfig value={{ ...swrConfig, ...swr }}>
      <CacheForInvalidation />
      <SessionProvider fromSavedSession={fromSavedSession} renderedFor={renderedFor}>
        {children}
        <Notifications />
      </SessionProvider>
    </SWRConfig>
  );
}
