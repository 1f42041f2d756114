import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The landing page must load no Firebase code: only firebase.ts may import the SDK, and the app may
// reach firebase.ts only through import() (type-only imports are erased). The browser test checks the build.
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

describe('Firebase stays out of the first load', () => {
  const files = sourceFiles(src).map((path) => ({ name: relative(src, path), code: readFileSync(path, 'utf8') }));

  it('finds the sources it checks', () => {
    expect(files.map((f) => f.name)).toContain('lib/session.tsx');
    expect(staticImports("import { a } from 'firebase/auth';\nimport type { B } from './firebase.ts';")).toEqual(['firebase/auth']);
  });

  it('only lib/firebase.ts imports the Firebase SDK', () => {
    const offenders = files.filter((f) => f.name !== 'lib/firebase.ts' && staticImports(f.code).some((m) => /^(firebase|@firebase)\b/.test(m)));
    expect(offenders.map((f) => f.name)).toEqual([]);
  });

  it('nothing imports lib/firebase.ts statically', () => {
    const offenders = files.filter((f) => staticImports(f.code).some((m) => /(^|\/)firebase\.ts$/.test(m)));
    expect(offenders.map((f) => f.name)).toEqual([]);
  });
});
