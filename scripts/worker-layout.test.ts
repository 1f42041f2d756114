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
/** The Worker's entry modules, above every domain: the fetch handler and the queue's consumer. */
const ENTRY = [`${SRC}/index.ts`, `${SRC}/queue.ts`];

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
    const WRITES = `${SRC}/booking/data/writes.ts`;
    const importers = files.filter((file) => importsOf(file).includes(WRITES));
    expect(importers).toEqual([`${SRC}/booking/engine.ts`]);
    const writing = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:bookings|claims|waitlist_offers)\b/i;
    expect(files.filter((file) => file !== WRITES && writing.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
