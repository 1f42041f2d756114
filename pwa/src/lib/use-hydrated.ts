import { createContext, useContext, useSyncExternalStore } from 'react';

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

/**
 * True where the page is rendered for one visit rather than built once: the Worker's render of a signed-in page
 * with the patient's data, and the browser's hydration of it (app.tsx). Its day is known there.
 */
export const RenderedForVisit = createContext(false);

/**
 * Whether this render is a page's frame, built once for every day it is served and for nobody: then it shows
 * nothing that depends on the day (the calendar's month, the chosen day). Not in a page rendered for one visit:
 * there the answer is the same before and after hydration, so React does not render the page again for it (the
 * booking page and its calendar: a task of 40 ms at ×4 CPU right after hydration, when it did).
 */
export function useFrame(): boolean {
  const forVisit = useContext(RenderedForVisit);
  return useSyncExternalStore(
    never,
    () => false,
    () => !forVisit,
  );
}
