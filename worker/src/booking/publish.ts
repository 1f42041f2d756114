import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { startText } from '../../../contract/slot-label.ts';
import { messageSettings } from '../clinic/data/message-settings.ts';
import { clinicInstant, clinicNow, firstBookableMinute } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import type { Consumer } from '../platform/events.ts';
import { datesOfEvent } from './data/events.ts';
import { type Day, freeStarts, gridStarts, readDay } from './schedule.ts';

/**
 * Published free times (docs/product-booking.md#published-free-times): the clinic's appointments as SMART
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
const LOCATIONS = 'locations.ndjson';
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

/** The deep link a free Slot carries: the booking page on that day, that treatment's modal at that start ("10:00"). */
export function deepLink(env: Env, date: string, treatmentId: string, start: string): string {
  const query = new URLSearchParams({ date, treatment: treatmentId, start });
  return `${env.APP_URL}/appointment?${query}`;
}

/** The Slots of one day's schedule of `treatment` from minute `from` on: free or busy, free ones with their links. */
function slotsOfDay(env: Env, day: Day, treatment: Day['treatments'][number], from: number, phone: string): object[] {
  if (!day.hours) return [];
  const free = new Set(freeStarts(env, day, treatment, from));
  return gridStarts(day, treatment.duration_minutes)
    .filter((start) => start >= from)
    .map((start) => {
      const isFree = free.has(start);
      return {
        resourceType: 'Slot',
        id: `${treatment.id}-${day.date}-${start}`,
        schedule: { reference: `Schedule/${treatment.id}` },
        status: isFree ? 'free' : 'busy',
        start: clinicInstant(env, day.date, start).toISOString(),
        end: clinicInstant(env, day.date, start + treatment.duration_minutes).toISOString(),
        ...(isFree
          ? {
              extension: [
                {
                  url: DEEP_LINK,
                  valueUrl: deepLink(env, day.date, treatment.id, startText(start)),
                },
                { url: BOOKING_PHONE, valueString: phone },
              ],
            }
          : {}),
      };
    });
}

/** Every Slot of `date` (ISO), for the active treatments, as published. */
async function slotsOn(env: Env, date: string, now: Date, phone: string): Promise<object[]> {
  const from = firstBookableMinute(env, date, now);
  if (from >= 24 * 60) return [];
  const day = await readDay(env, date, now);
  return day.treatments.filter((t) => t.active === 1).flatMap((t) => slotsOfDay(env, day, t, from, phone));
}

/** Writes the manifest and its files for the booking horizon; answers how many Slots were published. */
export async function publishFreeTimes(env: Env, now: Date): Promise<number> {
  const settings = await messageSettings(env.DB);
  const today = clinicNow(env, now).date;
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
    const slots = weeks.get(weekOf(date)) ?? [];
    for (const treatment of day.treatments.filter((t) => t.active === 1)) {
      schedules.set(treatment.id, {
        resourceType: 'Schedule',
        id: treatment.id,
        serviceType: [{ text: treatment.name }],
        actor: [{ reference: 'Location/clinic' }],
      });
      const ofTreatment = slotsOfDay(env, day, treatment, from, settings.clinic_phone);
      slots.push(...ofTreatment);
      published += ofTreatment.length;
    }
    weeks.set(weekOf(date), slots);
  }
  const files: [string, string][] = [
    [LOCATIONS, ndjson([location])],
    ['schedules.ndjson', ndjson([...schedules.values()])],
    ...[...weeks].map(([week, slots]): [string, string] => [`slots-${week}.ndjson`, ndjson(slots)]),
  ];
  await Promise.all(files.map(([name, body]) => putFile(env, name, body)));
  await writeManifest(
    env,
    now,
    files.map(([name]) => name),
  );
  return published;
}

const putFile = (env: Env, name: string, body: string) =>
  env.PHOTOS.put(`${PREFIX}${name}`, body, { httpMetadata: { contentType: 'application/fhir+ndjson' } });

async function writeManifest(env: Env, now: Date, names: readonly string[]) {
  const base = `${env.APP_URL}/fhir`;
  const manifest = {
    transactionTime: now.toISOString(),
    request: `${base}/$bulk-publish`,
    output: names.map((name) => ({
      type: name.startsWith('locations') ? 'Location' : name.startsWith('schedules') ? 'Schedule' : 'Slot',
      url: `${base}/${name}`,
    })),
    error: [],
  };
  await env.PHOTOS.put(MANIFEST, JSON.stringify(manifest), { httpMetadata: { contentType: 'application/json' } });
}

/**
 * Rewrites the Slots of `dates` in their weekly files (the other days' lines stay as they were) and
 * the manifest's time. A day whose week has no file yet (past the last whole publish) waits for the
 * next one. Answers how many Slots were written.
 */
export async function publishDays(env: Env, now: Date, dates: readonly string[]): Promise<number> {
  const manifest = await env.PHOTOS.get(MANIFEST);
  if (!manifest) return 0; // never asked for: the first GET publishes everything
  const { output } = await manifest.json<{ output: { url: string }[] }>();
  const names = output.map((o) => o.url.slice(o.url.lastIndexOf('/') + 1));
  const phone = (await messageSettings(env.DB)).clinic_phone;
  let published = 0;
  for (const date of new Set(dates)) {
    const name = `slots-${weekOf(date)}.ndjson`;
    const file = names.includes(name) ? await env.PHOTOS.get(`${PREFIX}${name}`) : null;
    if (!file) continue;
    const fresh = await slotsOn(env, date, now, phone);
    // A Slot's id is "<treatment>-<date>-<start>": the day's old lines go, its new ones take their place.
    const lines = (await file.text()).split('\n').filter((line) => line !== '');
    const kept = lines.filter((line) => !line.includes(`-${date}-`));
    const at = lines.findIndex((line) => line.includes(`-${date}-`));
    const next = [...fresh.map((slot) => JSON.stringify(slot))];
    kept.splice(at < 0 ? kept.length : at, 0, ...next);
    await putFile(env, name, `${kept.join('\n')}\n`);
    published += fresh.length;
  }
  await writeManifest(env, now, names);
  return published;
}

/**
 * The cron's step: republishes once the files are 15 minutes old by the wall clock (or were never
 * written), which catches what no event says (new opening hours, a doctor's days). A run for a past
 * or replayed schedule time does not rewrite fresh files.
 */
export async function refreshPublishedTimes(env: Env, now: Date): Promise<number> {
  // The Location file is written by whole publishes only (the consumer rewrites the manifest too).
  const current = await env.PHOTOS.head(`${PREFIX}${LOCATIONS}`);
  if (current && Date.now() - current.uploaded.getTime() < REFRESH_MS) return 0;
  return publishFreeTimes(env, now);
}

/**
 * The publishing consumer: a booking placed, moved, cancelled, released or stranded, or an offer's
 * held time taken or freed, rewrites the Slot files of the days it touched, so the published times
 * follow the booking page within a queue delivery, not the next refresh. Rewriting is safe to repeat.
 * Nothing is published before the files were first asked for (the first GET writes them all).
 */
export const publishingConsumer: Consumer = {
  name: 'publishing',
  handles: new Set([
    'booking.placed',
    'booking.moved',
    'booking.cancelled',
    'booking.released',
    'booking.stranded',
    'offer.made',
    'offer.accepted',
    'offer.declined',
    'offer.expired',
    'offer.withdrawn',
    'time.freed',
  ]),
  async handle(env, event, delivered, now) {
    const dates = await datesOfEvent(env.DB, event);
    if (dates.length > 0) await publishDays(env, now, dates);
    else if (await env.PHOTOS.head(MANIFEST)) await publishFreeTimes(env, now);
    await delivered.run();
  },
};

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
