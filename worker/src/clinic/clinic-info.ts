/**
 * Who the clinic is (its name, address and phone, from the message settings), for the pages: GET
 * /api/clinic, and every HTML page the Worker serves, which carries them (the prerendered landing
 * page rewritten where it shows them, and a JSON block the PWA reads before its first render).
 */
import type { ClinicInfo } from '../../../contract/clinic.ts';
import { messageSettings } from '../messages/data/message-settings.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';

/** The name the build prerenders (the seed clinic's), replaced in the page's description. */
const DEFAULT_NAME = 'Smile Dental Clinic';

/** How long an isolate reuses what it read: a change reaches every page within this. */
const FRESH_MS = 30_000;
let cached: { info: Promise<ClinicInfo>; until: number } | undefined;

/** The clinic's name, address and phone, read from D1 at most once per FRESH_MS per isolate. */
export function clinicInfo(env: Env, now = clock().getTime()): Promise<ClinicInfo> {
  if (!cached || cached.until <= now) {
    const info = messageSettings(env.DB).then((row) => ({
      name: row.clinic_name,
      address: row.clinic_address,
      phone: row.clinic_phone,
    }));
    cached = { info, until: now + FRESH_MS };
    info.catch(() => {
      cached = undefined;
    });
  }
  return cached.info;
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
 * title, and the prerendered elements marked data-clinic="name" | "address" | "phone" (a link so
 * marked also gets its tel: address).
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
        if (field !== 'name' && field !== 'address' && field !== 'phone') return;
        element.setInnerContent(escapeHtml(info[field]), { html: true });
        if (field === 'phone' && element.tagName === 'a') element.setAttribute('href', telHref(info.phone));
      },
    })
    .transform(new Response(page.body, { status: page.status, headers }));
}
