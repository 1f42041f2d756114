import { pageClinic } from './page-clinic.ts';

/** The seed clinic's zone (wrangler.toml's CLINIC_TIME_ZONE), where the page says none. */
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

/**
 * The clinic's IANA time zone: "today", the booking window and deadlines are the clinic's, not the
 * browser's. The Worker's own (CLINIC_TIME_ZONE), which every page it serves carries.
 */
export const CLINIC_TIME_ZONE = validTimeZone(pageClinic()?.timeZone) ?? DEFAULT_TIME_ZONE;
