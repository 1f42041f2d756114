// Which API answers the Worker renders a signed-in page with (entry-server.tsx; first-answers.ts reads them back
// in the browser). Only the renderer imports this.
import { DEPENDANTS_PATH, firstDataPaths, myBookingsPath } from './api-paths.ts';
import { adminStatusKey, appointmentOptionsKey, POLICY_KEY } from './cache-keys.ts';
import { clinicToday, isoDay } from './clinic-calendar.ts';
import { PER_PATIENT } from './first-answers.ts';
import { pathOf } from './route-paths.ts';

/**
 * The API paths (under /api) the Worker renders the page at `pathname` (with the query `search`) with, for the
 * patient `email`, the first of which must answer:
 * - My Appointments: its first data (firstDataPaths), then what its other sections and the menu show, so the page
 *   is whole when it paints and nothing moves as those calls answer (not the paged past visits, which the page
 *   loads below the rest);
 * - a payment page: its booking, and what the menu shows;
 * - the booking page: the clinic's today's free times, the patient's waitlist, family and bookings. Not when a link names a
 *   day, a time or the family visit (`?date=`…): that page is the frame, and reads its link itself.
 * None for another page; throws on a malformed address.
 */
export function renderedDataPaths(pathname: string, email: string, search = '', now = new Date()): string[] {
  if (pathname === '/appointment') {
    if (search !== '') return [];
    return [
      appointmentOptionsKey(isoDay(clinicToday(now))),
      pathOf('GET /waitlist'),
      DEPENDANTS_PATH,
      // Its "Book again": the patient's last visit.
      myBookingsPath(email),
    ];
  }
  const first = firstDataPaths(pathname, email);
  if (first.length === 0) return first;
  // The dashboard's menu: whether the patient is an admin.
  const menu = adminStatusKey(email);
  if (pathname !== '/dashboard') return [...first, menu];
  return [...first, ...[...PER_PATIENT.keys()].filter((path) => !first.includes(path)), POLICY_KEY, menu];
}
