/**
 * True while the build prerenders the pages (scripts/prerender.ts), never in a browser. A page's frame is rendered
 * then: its layout, headings and loading states, nobody's data, and nothing that depends on the day it is shown
 * (a build may be served for months), which the browser paints before any script runs.
 */
export const prerendering = typeof document === 'undefined';
