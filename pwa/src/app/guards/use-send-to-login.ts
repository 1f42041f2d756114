import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { loginPathFor } from '../../lib/login-redirect.ts';

/** Replaces the current entry with /login, remembering this page (path and query) to come back to. */
export function useSendToLogin(): () => void {
  const [location, navigate] = useLocation();
  const search = useSearch();
  return useCallback(() => {
    navigate(loginPathFor(search ? `${location}?${search}` : location), { replace: true });
  }, [location, navigate, search]);
}
