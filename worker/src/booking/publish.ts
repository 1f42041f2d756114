import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { slotLabel } from '../../../contract/slot-label.ts';
import { messageSettings } from '../messages/data/message-settings.ts';
import { clinicInstant, clinicNow, firstBookableMinute } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { freeStarts, gridStarts, readDay } from './schedule.ts';

/**
 * Published free times (docs/product.md#published-free-times): the clinic's appointments as SMART
 * Scheduling Links STU1 (https://github.com/smart-on-fhir/smart-scheduling-links), the FHIR-based
 * bulk files that booking aggregators read. The cron writes them to R2; GET /fhir/$bulk-publish
 * serves the manifest and /fhir/<file>.ndjson the files. A Schedule per treatment, not per doctor:
 * a patient books a treatment and the engine chooses the doctor and chair, so a treatment's free
 * starts are what can really be booked. Slots carry no patient data: only free or busy.
 */

const PREFIX = 'fhir/';
export const MANIFEST = `${PREFIX}$bulk-publish.json`;
const DEEP_LINK = 'http://fhir-registry.smarthealthit.org/StructureDefinition/booking-deep-link';
const BOOKING_PHONE = 'http://fhir-registry.smarthealthit.org/StructureDefinition/booking-phone';
const TIME_ZONE = 'http://hl7.org/fhir/StructureDefinition/timezone';
/** The files are rewritten at most this often (the cron runs every 5 minutes). */
const REFRESH_MS = 15 * 60_000;

const ndjson = (resources: object[]) => `${resources.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** The Monday (ISO date) of the week of `isoDate`: Slot files are split per week. */
function weekOf(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The clinic's address as a FHIR Address: STU1 asks for line, city, state and postal code, read from
 * "1200 Harbor Street, Brooklyn, NY 11201"; an address in another shape stays whole in `text`.
 */
export function addressOf(text: string): Record<string, unknown> {
  const parts = text.split(',').map((part) => part.trim());
  const region = /^([A-Z]{2}) (\d{5}(?:-\d{4})?)$/.exec(parts.at(-1) ?? '');
  if (parts.length < 3 || !region) return { text };
  return { text, line: parts.slice(0, -2), city: parts.at(-2), state: region[1], postalCode: region[2] };
}

/** The deep link a free Slot carries: the booking page on that day, that treatment's modal at that time. */
export function deepLink(env: Env, date: string, treatmentId: string, label: string): string {
  const query = new URLSearchParams({ date, treatment: treatmentId, slot: label });
  return `${env.APP_URL}/appointment?${query}`;
}

/** Writes the manifest and its files for the booking horizon; answers how many Slots were published. */
export async function publishFreeTimes(env: Env, now: Date): Promise<number> {
  const settings = await messageSettings(env.DB);
  const today = clinicNow(env, now).date;
  const base = `${env.APP_URL}/fhir`;
  const location = {
    resourceType: 'Location',
    id: 'clinic',
    name: settings.clinic_name,
    telecom: [
      { system: 'phone', value: settings.clinic_phone },
      { system: 'url', value: env.APP_URL },
    ],
    address: addressOf(settings.clinic_address),
    extension: [{ url: TIME_ZONE, valueCode: env.CLINIC_TIME_ZONE }],
  };
  const schedules = new Map<string, object>();
  const weeks = new Map<string, object[]>();
  let published = 0;
  for (let offset = 0; ; offset++) {
    const date = format(addDays(new Date(`${today}T12:00:00Z`), offset), 'yyyy-MM-dd');
    const from = firstBookableMinute(env, date, now);
    if (from >= 24 * 60) break; // past the horizon
    const day = await readDay(env, date, now);
    for (const treatment of day.treatments.filter((t) => t.active === 1)) {
      schedules.set(treatment.id, {
        resourceType: 'Schedule',
        id: treatment.id,
        serviceType: [{ text: treatment.name }],
        actor: [{ reference: 'Location/clinic' }],
      });
      if (!day.hours) continue;
      const free = new Set(freeStarts(env, day, treatment, from));
      const slots = weeks.get(weekOf(date)) ?? [];
      for (const start of gridStarts(day, treatment.duration_minutes).filter((s) => s >= from)) {
        const label = slotLabel(start, treatment.duration_minutes);
        const isFree = free.has(start);
        slots.push({
          resourceType: 'Slot',
          id: `${treatment.id}-${date}-${start}`,
          schedule: { reference: `Schedule/${treatment.id}` },
          status: isFree ? 'free' : 'busy',
          start: clinicInstant(env, date, start).toISOString(),
          end: clinicInstant(env, date, start + treatment.duration_minutes).toISOString(),
          ...(isFree
            ? {
                extension: [
                  { url: DEEP_LINK, valueUrl: deepLink(env, date, treatment.id, label) },
                  { url: BOOKING_PHONE, valueString: settings.clinic_phone },
                ],
              }
            : {}),
        });
        published += 1;
      }
      weeks.set(weekOf(date), slots);
    }
  }
  const files: [string, string][] = [
    ['locations.ndjson', ndjson([location])],
    ['schedules.ndjson', ndjson([...schedules.values()])],
    ...[...weeks].map(([week, slots]): [string, string] => [`slots-${week}.ndjson`, ndjson(slots)]),
  ];
  await Promise.all(
    files.map(([name, body]) =>
      env.PHOTOS.put(`${PREFIX}${name}`, body, { httpMetadata: { contentType: 'application/fhir+ndjson' } }),
    ),
  );
  const manifest = {
    transactionTime: now.toISOString(),
    request: `${base}/$bulk-publish`,
    output: files.map(([name]) => ({
      type: name.startsWith('locations') ? 'Location' : name.startsWith('schedules') ? 'Schedule' : 'Slot',
      url: `${base}/${name}`,
    })),
    error: [],
  };
  await env.PHOTOS.put(MANIFEST, JSON.stringify(manifest), { httpMetadata: { contentType: 'application/json' } });
  return published;
}

/**
 * The cron's step: republishes once the files are 15 minutes old by the wall clock (or were never
 * written). A run for a past or replayed schedule time does not rewrite fresh files.
 */
export async function refreshPublishedTimes(env: Env, now: Date): Promise<number> {
  const current = await env.PHOTOS.head(MANIFEST);
  if (current && Date.now() - current.uploaded.getTime() < REFRESH_MS) return 0;
  return publishFreeTimes(env, now);
}

const FILE = /^\/fhir\/(\$bulk-publish|[a-z]+(?:-\d{4}-\d{2}-\d{2})?\.ndjson)$/;

/**
 * GET /fhir/$bulk-publish and /fhir/<file>.ndjson: the published files from R2, for anyone, with
 * `Cache-Control: max-age=300` and an ETag (304 to `If-None-Match`). Never published yet: written now.
 */
export async function servePublished(request: Request, env: Env): Promise<Response | null> {
  const name = FILE.exec(new URL(request.url).pathname)?.[1];
  if (!name) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Response.json({ message: 'Only GET' }, { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const key = name === '$bulk-publish' ? MANIFEST : `${PREFIX}${name}`;
  if (key === MANIFEST && !(await env.PHOTOS.head(MANIFEST))) await publishFreeTimes(env, clock());
  const object = await env.PHOTOS.get(key);
  if (!object) return Response.json({ message: 'No such file' }, { status: 404 });
  const headers = {
    ETag: object.httpEtag,
    'Cache-Control': 'public, max-age=300',
    'Content-Type': key === MANIFEST ? 'application/json' : 'application/fhir+ndjson',
    'Access-Control-Allow-Origin': '*',
  };
  const asked = request.headers.get('If-None-Match');
  if (asked?.split(',').some((tag) => tag.trim() === object.httpEtag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === 'HEAD' ? null : object.body, { headers });
}
