import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// IndexedDB (Dexie) and the service worker's register code must stay off the landing page's first
// load: only lib/db.ts imports Dexie; the modules that use the database, and the registration, are
// reached only through import(). (Type-only imports are erased.) `npm run build` output confirms it.
const src = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const staticImports = (code: string) =>
  [...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] ?? m[2] ?? '',
  );

const files = sourceFiles(src).map((path) => ({ name: relative(src, path), code: readFileSync(path, 'utf8') }));
const importers = (pattern: RegExp) =>
  files.filter((f) => staticImports(f.code).some((specifier) => pattern.test(specifier))).map((f) => f.name).sort();

describe('offline code stays out of the first load', () => {
  it('finds the sources it checks', () => {
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['lib/db.ts', 'lib/outbox.ts', 'main.tsx']));
  });

  it('only lib/db.ts imports Dexie', () => {
    expect(importers(/^dexie$/)).toEqual(['lib/db.ts']);
  });

  it('lib/db.ts is imported statically only by the modules that are themselves loaded with import()', () => {
    expect(importers(/(^|\/)db\.ts$/)).toEqual(['features/bookings/api/saved-bookings.ts', 'lib/outbox.ts']);
    expect(importers(/(^|\/)(outbox|saved-bookings)\.ts$/)).toEqual([]);
  });

  it('the service worker registration is loaded with import() only', () => {
    expect(importers(/^virtual:pwa-register/)).toEqual(['lib/service-worker.ts']);
    expect(importers(/(^|\/)service-worker\.ts$/)).toEqual([]);
  });
});
