import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type LoginReason, loginPathFor } from '../../lib/login-redirect.ts';

/**
 * Replaces the current entry with /login, remembering this page (path and query) to come back to and,
 * when there is one, why (the login page says it).
 */
export function useSendToLogin(): (reason?: LoginReason) => void {
  const [location, navigate] = useLocation();
  const search = useSearch();
  return useCallback(
    (reason?: LoginReason) => {
      navigate(loginPathFor(search ? `${location}?${search}` : location), {
        replace: true,
        state: reason ? { loginReason: reason } : null,
      });
    },
    [location, navigate, search],
  );
}
