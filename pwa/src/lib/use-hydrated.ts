import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while the build prerenders a page (scripts/prerender.ts) and while the browser hydrates that page; true
 * from the render right after hydration on, and in every page the app renders itself. Pages paint from their
 * prerendered HTML before any script runs (issue 31), so:
 * - a page's frame is what renders while this is false: its layout, headings and loading states, nobody's data,
 *   nothing that depends on the day it is shown (a build may be served for months);
 * - a form there takes no typing or submit while this is false, since no code is listening to it yet.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
