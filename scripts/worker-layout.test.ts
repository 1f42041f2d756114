import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The Worker's folders show the product: worker/src/<domain>/ holds a domain's routes, and
 * worker/src/<domain>/data/ its SQL. The data layer imports only other data modules, the clinic's
 * clock and the Env type, and the contract: never a route handler.
 */
const SRC = 'worker/src';
const DOMAINS = ['booking', 'clinic', 'messages', 'money', 'people', 'platform', 'records'];
/** Modules outside a data/ folder that a data module may use: pure helpers without routes. */
const ALLOWED_OUTSIDE_DATA = [
  'worker/src/platform/clinic-time.ts',
  'worker/src/platform/clock.ts',
  'worker/src/platform/env.ts',
  'worker/src/platform/event-types.ts',
];
/**
 * The Worker's entry modules, above every domain: the fetch handler, the queue's consumer, the
 * cron, the follow-ups of a request and the renderer of the pages.
 */
const ENTRY = ['app-shell', 'follow-up', 'index', 'queue', 'scheduled', 'signed-in-page'].map(
  (name) => `${SRC}/${name}.ts`,
);

/**
 * The floors of the house (docs/architecture.md#layers): a module imports only from its own floor
 * or below. The data folders follow the domains' order (platform, then people and clinic, then
 * booking, then the consumers); the clinic's setup screens sit above the engine, because a change of
 * hours, chairs, doctors or treatments asks the engine what it strands and answers with it.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['platform', 'platform/data'],
  ['people', 'people/data', 'clinic/data'],
  ['booking', 'booking/data'],
  ['clinic', 'messages', 'messages/data', 'money', 'money/data', 'records', 'records/data'],
];
function floorOf(file: string): number {
  const [domain, sub] = relative(SRC, file).split('/');
  if (sub === undefined) return FLOORS.length; // an entry module
  const place = sub === 'data' ? `${domain}/data` : domain;
  const floor = FLOORS.findIndex((names) => names.includes(place ?? ''));
  if (floor < 0) throw new Error(`${file} is on no floor`);
  return floor;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => join(dirname(file), m[1] ?? ''));

describe('the Worker’s layout', () => {
  const files = filesUnder(SRC);

  it('keeps every module in a domain folder, but the entry points', () => {
    const loose = files.filter((file) => !DOMAINS.some((domain) => file.startsWith(`${SRC}/${domain}/`)));
    expect(loose.sort()).toEqual(ENTRY);
  });

  it('has no import that runs up a floor', () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`${SRC}/`) && floorOf(target) > floorOf(file))
        .map((target) => `${file} imports ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('has a data layer that imports no handler module', () => {
    const dataFiles = files.filter((file) => file.includes('/data/'));
    expect(dataFiles.length).toBeGreaterThan(10);
    const wrong = dataFiles.flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            target.startsWith(SRC) &&
            !target.includes('/data/') &&
            !ALLOWED_OUTSIDE_DATA.includes(relative('.', target)),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('lets only the booking engine change bookings, claims and waitlist offers', () => {
    const WRITES = [`${SRC}/booking/data/writes.ts`, `${SRC}/booking/data/offer-writes.ts`];
    const importers = files.filter(
      (file) => !WRITES.includes(file) && importsOf(file).some((target) => WRITES.includes(target)),
    );
    expect(importers.filter((file) => !file.startsWith(`${SRC}/booking/engine/`))).toEqual([]);
    const writing = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:bookings|claims|waitlist_offers)\b/i;
    expect(files.filter((file) => !WRITES.includes(file) && writing.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('keeps SQL in data/ folders and every module under 500 lines', () => {
    // query-count.ts wraps D1's prepare to count queries; it runs none of its own.
    const outside = files.filter(
      (file) =>
        !file.includes('/data/') &&
        file !== `${SRC}/platform/query-count.ts` &&
        /\bprepare\(/.test(readFileSync(file, 'utf8')),
    );
    expect(outside).toEqual([]);
    const long = files.filter((file) => readFileSync(file, 'utf8').split('\n').length > 500);
    expect(long).toEqual([]);
  });

  it('parses a client’s input only in the router, by the route table’s schemas', () => {
    // platform/input.ts parses a route's params, query and JSON body before its handler runs; a handler asks
    // for them with inputOf(request, 'METHOD /path'). Raw bytes are read only where a signature or a file
    // needs them (readAtMost: the webhooks, an image).
    const router = [`${SRC}/platform/input.ts`, `${SRC}/index.ts`];
    const parsing = /\breadJson\(|\breadQuery\(|searchParams|request\.params\b|request\.(json|text|formData)\(\)/;
    const outside = files.filter((file) => !router.includes(file) && parsing.test(readFileSync(file, 'utf8')));
    expect(outside).toEqual([]);
  });
});
