// The Worker's CLINIC_TIME_ZONE (wrangler.toml). The client cannot read the Worker's configuration,
// so a deployment that changes it there sets VITE_CLINIC_TIME_ZONE at build time.
const DEFAULT_TIME_ZONE = 'America/New_York';

function validTimeZone(zone: unknown): string | null {
  if (typeof zone !== 'string' || !zone.trim()) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() });
    return zone.trim();
  } catch {
    return null;
  }
}

/** The clinic's IANA time zone: "today", the booking window and deadlines are the clinic's, not the browser's. */
export const CLINIC_TIME_ZONE = validTimeZone(import.meta.env.VITE_CLINIC_TIME_ZONE) ?? DEFAULT_TIME_ZONE;
