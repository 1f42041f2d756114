/**
 * Who the clinic is (its name, address and phone, from the message settings; its time zone, booking
 * horizon and languages, from its configuration), for the pages: GET
 * /api/clinic, and every HTML page the Worker serves, which carries them (the prerendered landing
 * page rewritten where it shows them, and a JSON block the PWA reads before its first render).
 */
import type { ClinicInfo } from '../../../contract/clinic.ts';
import { addCalendarDays } from '../../../contract/fields.ts';
import { LANGUAGES } from '../../../contract/languages.ts';
import { clinicNow, displayDate, horizonDays } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { type HoursRow, weekHours } from './data/clinic-hours.ts';
import { nextClinicClosure } from './data/closures.ts';
import { messageSettings } from './data/message-settings.ts';

/** The name the build prerenders (the seed clinic's), replaced in the page's description. */
const DEFAULT_NAME = 'Smile Dental Clinic';

/** How long an isolate reuses what it read: a change reaches every page within this. */
const FRESH_MS = 30_000;
let cached: { info: Promise<ClinicInfo>; until: number } | undefined;

/** The clinic's name, address, phone, hours, next closure and place, read from D1 at most once per FRESH_MS per isolate. */
export function clinicInfo(env: Env, now = clock().getTime()): Promise<ClinicInfo> {
  if (!cached || cached.until <= now) {
    const today = clinicNow(env, new Date(now)).date;
    const info = Promise.all([
      messageSettings(env.DB),
      env.DB.batch([weekHours(env.DB), nextClinicClosure(env.DB, today, addCalendarDays(today, 60))]),
    ]).then(([row, [hours, closure]]) => ({
      name: row.clinic_name,
      address: row.clinic_address,
      phone: row.clinic_phone,
      hours: hoursText((hours?.results ?? []) as HoursRow[]),
      closure: closureText((closure?.results ?? [])[0] as ClosureSpan | undefined),
      timeZone: env.CLINIC_TIME_ZONE,
      bookingHorizonDays: horizonDays(env),
      languages: [...LANGUAGES],
    }));
    cached = { info, until: now + FRESH_MS };
    info.catch(() => {
      cached = undefined;
    });
  }
  return cached.info;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/** "9.00 am", "5.00pm": the product's way of writing a time (docs/product-visitors.md#home-page). */
const timeText = (minute: number, space: boolean) => {
  const hour = Math.floor(minute / 60) % 24;
  const text = `${((hour + 11) % 12) + 1}.${String(minute % 60).padStart(2, '0')}`;
  return `${text}${space ? ' ' : ''}${hour < 12 ? 'am' : 'pm'}`;
};

/**
 * The week's opening hours in words: "9.00 am to 5.00pm every day" when every day is alike, else
 * each run of days alike ("Mon–Fri 9.00 am to 5.00pm; Sat 10.00 am to 2.00pm; closed Sun").
 */
export function hoursText(rows: HoursRow[]): string {
  const byDay = DAY_NAMES.map((_, weekday) => {
    const row = rows.find((r) => r.weekday === weekday);
    return row ? `${timeText(row.open_minute, true)} to ${timeText(row.close_minute, false)}` : null;
  });
  if (byDay.every((hours) => hours !== null && hours === byDay[0])) return `${byDay[0]} every day`;
  // Monday first, Sunday last, as a week reads.
  const week = [1, 2, 3, 4, 5, 6, 0];
  const runs: { from: number; to: number; hours: string | null }[] = [];
  for (const weekday of week) {
    const last = runs.at(-1);
    if (last && last.hours === byDay[weekday]) last.to = weekday;
    else runs.push({ from: weekday, to: weekday, hours: byDay[weekday] ?? null });
  }
  return runs
    .map(({ from, to, hours }) => {
      const days = from === to ? DAY_NAMES[from] : `${DAY_NAMES[from]}–${DAY_NAMES[to]}`;
      return hours ? `${days} ${hours}` : `closed ${days}`;
    })
    .join('; ');
}

type ClosureSpan = { from_date: string; to_date: string; reason: string };

/** "Closed Dec 24, 2026: Holidays", "Closed Dec 24 to Dec 26, 2026: Holidays"; null for none. */
function closureText(closure: ClosureSpan | undefined): string | null {
  if (!closure) return null;
  const days =
    closure.from_date === closure.to_date
      ? displayDate(closure.from_date)
      : `${displayDate(closure.from_date)} to ${displayDate(closure.to_date)}`;
  return `Closed ${days}: ${closure.reason}`;
}

/** The settings changed here: this isolate reads them again at the next page. */
export function forgetClinicInfo(): void {
  cached = undefined;
}

/** GET /api/clinic (anyone). */
export async function getClinicInfo(_request: Request, env: Env): Promise<Response> {
  return json((await clinicInfo(env)) satisfies ClinicInfo);
}

/** A phone number as a tel: link: its digits and a leading "+". */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, '')}`;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * An HTML page with the clinic in it: the JSON block the PWA starts from (script#clinic-info), the
 * title, and the prerendered elements marked data-clinic="name" | "address" | "phone" | "hours" |
 * "closure" (a link so marked also gets its tel: address; the closure shows only when there is one).
 */
export function withClinicInfo(page: Response, info: ClinicInfo): Response {
  const headers = new Headers(page.headers);
  // The body changes: the asset's length and validator describe another body.
  headers.delete('Content-Length');
  headers.delete('ETag');
  // "<" never appears inside the block, so no text can close the script element early.
  const block = JSON.stringify(info).replaceAll('<', '\\u003c');
  return new HTMLRewriter()
    .on('head', {
      element: (head) =>
        void head.append(`<script id="clinic-info" type="application/json">${block}</script>`, { html: true }),
    })
    .on('title', { element: (title) => void title.setInnerContent(info.name) })
    .on('meta[name="description"]', {
      element(meta) {
        const content = meta.getAttribute('content');
        if (content) meta.setAttribute('content', content.replace(DEFAULT_NAME, info.name));
      },
    })
    .on('[data-clinic]', {
      element(element) {
        const field = element.getAttribute('data-clinic');
        if (field !== 'name' && field !== 'address' && field !== 'phone' && field !== 'hours' && field !== 'closure') {
          return;
        }
        const value = info[field] ?? '';
        element.setInnerContent(escapeHtml(value), { html: true });
        if (field === 'phone' && element.tagName === 'a') element.setAttribute('href', telHref(info.phone));
        if (field === 'closure') {
          if (value) element.removeAttribute('hidden');
          else element.setAttribute('hidden', '');
        }
      },
    })
    .transform(new Response(page.body, { status: page.status, headers }));
}
