/**
 * The JSON block the Worker puts in every page it serves (worker/src/clinic/clinic-info.ts): who
 * the clinic is, and its place (time zone, booking horizon), read once as the app's modules load,
 * before its first render. Null where the page has none (a test, the build's prerender) or it is
 * not JSON.
 */
export function pageClinic(): Record<string, unknown> | null {
  if (typeof document === 'undefined') return null;
  try {
    const parsed: unknown = JSON.parse(document.getElementById('clinic-info')?.textContent ?? 'null');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
