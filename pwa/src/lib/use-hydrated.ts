import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while the prerendered page is on screen but its code has not taken it over (and at build time); true from
 * the render right after hydration on. The landing page paints before any script runs (issue 31): a form there
 * must not take typing or a submit that no code is listening to yet.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
