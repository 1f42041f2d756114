import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addCalendarDays } from '../../contract/fields.ts';
import { publishFreeTimes } from '../src/booking/publish.ts';
import { clinicInstant, weekdayOf } from '../src/platform/clinic-time.ts';
import { bookAs, call, clinicDay, newPatient, optionsOn, pinClock, seed } from './helpers.ts';

beforeAll(async () => {
  await seed();
});
afterEach(() => vi.useRealTimers());

type Manifest = { transactionTime: string; request: string; output: { type: string; url: string }[]; error: unknown[] };
type Resource = Record<string, unknown> & { resourceType: string; id: string };
type Slot = Resource & {
  schedule: { reference: string };
  status: 'free' | 'busy';
  start: string;
  end: string;
  extension?: { url: string; valueUrl?: string; valueString?: string }[];
};

const DEEP_LINK = 'http://fhir-registry.smarthealthit.org/StructureDefinition/booking-deep-link';

async function manifest(): Promise<{ response: Response; body: Manifest }> {
  const response = await call('/fhir/$bulk-publish');
  expect(response.status).toBe(200);
  return { response, body: await response.clone().json<Manifest>() };
}

/** Every resource of the published files of `type`, each line a FHIR resource. */
async function resources<T = Resource>(body: Manifest, type: string): Promise<T[]> {
  const all: T[] = [];
  for (const file of body.output.filter((o) => o.type === type)) {
    const response = await call(new URL(file.url).pathname);
    expect(response.headers.get('Content-Type')).toBe('application/fhir+ndjson');
    // A week with no time left (the rest of this week, late on its last open day) is an empty file.
    const lines = (await response.text()).split('\n').filter((line) => line.trim() !== '');
    all.push(...lines.map((line) => JSON.parse(line) as T));
  }
  return all;
}

describe('published free times (SMART Scheduling Links)', () => {
  it('answers the manifest with its Location, Schedule and weekly Slot files, cached for 5 minutes', async () => {
    const { response, body } = await manifest();
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    const etag = response.headers.get('ETag') ?? '';
    expect((await call('/fhir/$bulk-publish', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect(Number.isNaN(Date.parse(body.transactionTime))).toBe(false);
    expect(body.request).toBe(`${env.APP_URL}/fhir/$bulk-publish`);
    expect(body.error).toEqual([]);
    const types = body.output.map((o) => o.type);
    expect(types.slice(0, 2)).toEqual(['Location', 'Schedule']);
    expect(types.filter((t) => t === 'Slot').length).toBeGreaterThanOrEqual(9); // 60 days: 9 or 10 weeks
    expect(body.output.every((o) => o.url.startsWith(`${env.APP_URL}/fhir/`))).toBe(true);

    const [location] = await resources(body, 'Location');
    expect(location).toMatchObject({
      resourceType: 'Location',
      name: 'Smile Dental Clinic',
      telecom: expect.arrayContaining([{ system: 'phone', value: expect.any(String) }]),
      address: { line: ['1200 Harbor Street'], city: 'Brooklyn', state: 'NY', postalCode: '11201' },
      extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/timezone', valueCode: env.CLINIC_TIME_ZONE }],
    });
    const schedules = await resources(body, 'Schedule');
    expect(schedules.map((s) => s.id)).toContain('teeth-cleaning');
    expect(schedules[0]).toMatchObject({ actor: [{ reference: 'Location/clinic' }] });
    expect((await call('/fhir/no-such-file.ndjson')).status).toBe(404);
  });

  it('publishes as free exactly the times the booking page offers, busy once taken, and no patient data', async () => {
    const patient = await newPatient('publish');
    const date = clinicDay(3);
    const [slot] = (await optionsOn(date)).find((o) => o._id === 'teeth-cleaning')?.slots ?? [];
    const booked = await bookAs(patient.auth, { treatment: 'teeth-cleaning', appointmentDate: date, slot: slot ?? '' });
    expect(booked.status).toBe(201);
    await publishFreeTimes(env, new Date());
    const { body } = await manifest();
    const slots = await resources<Slot>(body, 'Slot');
    const ofDay = slots.filter((s) => s.schedule.reference === 'Schedule/teeth-cleaning' && s.id.includes(`-${date}-`));
    const linkOf = (s: Slot) => new URL(s.extension?.find((e) => e.url === DEEP_LINK)?.valueUrl ?? '');
    const free = ofDay.filter((s) => s.status === 'free');
    const offered = (await optionsOn(date)).find((o) => o._id === 'teeth-cleaning')?.starts ?? [];
    expect(free.map((s) => linkOf(s).searchParams.get('start'))).toEqual(offered);
    expect(free.every((s) => s.extension?.some((e) => e.url.endsWith('/booking-phone')))).toBe(true);
    const link = linkOf(free[0] as Slot);
    expect([link.pathname, link.searchParams.get('date'), link.searchParams.get('treatment')]).toEqual([
      '/appointment',
      date,
      'teeth-cleaning',
    ]);
    // The booked start is busy now, and nothing anywhere names the patient.
    expect(ofDay.find((s) => s.status === 'busy' && s.id.endsWith(`-${date}-540`))).toBeTruthy();
    const everything = JSON.stringify(slots) + JSON.stringify(await resources(body, 'Location'));
    expect(everything).not.toContain(patient.email);
    expect(everything).not.toContain('Patient publish');
  });

  it('follows a booking and its cancellation through the queue, with no cron run between', async () => {
    const date = clinicDay(4);
    const dayOf = async () => {
      const { body } = await manifest(); // the first GET publishes; then the publishing consumer keeps the files current
      const slots = await resources<Slot>(body, 'Slot');
      return slots.filter((s) => s.schedule.reference === 'Schedule/teeth-cleaning' && s.id.includes(`-${date}-`));
    };
    const first = (await dayOf()).find((s) => s.status === 'free');
    const start = new URL(first?.extension?.find((e) => e.url === DEEP_LINK)?.valueUrl ?? '').searchParams.get('start');
    expect(start).toBe((await optionsOn(date)).find((o) => o._id === 'teeth-cleaning')?.starts[0]);
    const statusNow = async () => (await dayOf()).find((s) => s.id === first?.id)?.status;
    const patient = await newPatient('publish-follow');
    const booked = await bookAs(patient.auth, {
      treatment: 'teeth-cleaning',
      appointmentDate: date,
      start: start ?? '',
    });
    expect(booked.status).toBe(201);
    expect(await statusNow()).toBe('busy');
    const { insertedId } = await booked.json<{ insertedId: string }>();
    expect((await call(`/api/bookings/${insertedId}`, { method: 'DELETE', headers: patient.auth })).status).toBe(200);
    expect(await statusNow()).toBe('free');
  });

  it('publishes what is left of a week late on its Sunday as an empty file, and the weeks after in full', async () => {
    let sunday = clinicDay(1);
    while (weekdayOf(sunday) !== 0) sunday = addCalendarDays(sunday, 1);
    pinClock(clinicInstant(env, sunday, 23 * 60 + 30).toISOString());
    await publishFreeTimes(env, new Date());
    const { body } = await manifest();
    const [thisWeek, nextWeek] = body.output.filter((o) => o.type === 'Slot').map((o) => new URL(o.url).pathname);
    expect(thisWeek).toBe(`/fhir/slots-${addCalendarDays(sunday, -6)}.ndjson`);
    expect((await (await call(thisWeek ?? '')).text()).trim()).toBe('');
    expect(nextWeek).toBe(`/fhir/slots-${addCalendarDays(sunday, 1)}.ndjson`);
    const slots = await resources<Slot>(body, 'Slot');
    expect(slots.some((s) => s.status === 'free' && s.id.includes(`-${addCalendarDays(sunday, 1)}-`))).toBe(true);
  });
});
