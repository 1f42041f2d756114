import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../contract/routes.ts';

/**
 * Features stay in their rooms (issue 47): a module of pwa/src/features/<name>/ imports another feature only
 * through its `api/` folder (its data: hooks, calls and types, which the build already shares between pages), never
 * its components or other internals. A page that combines features is composed in pwa/src/app/pages/, which hands
 * each feature's page the other features' parts (render props such as `familyVisit` or `calendarFeed`).
 */
const FEATURES = 'pwa/src/features';

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each import of another feature's internals, as "<feature>/<file> -> <other feature>/<file>". */
function crossFeatureImports(): string[] {
  return sourcesUnder(FEATURES).flatMap((file) => {
    const [own] = relative(FEATURES, file).split('/');
    const specifiers = [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]);
    return specifiers.flatMap((specifier) => {
      const target = relative(FEATURES, join(dirname(file), specifier ?? ''));
      const [feature, folder] = target.split('/');
      if (target.startsWith('..') || feature === own || folder === 'api') return [];
      return [`${relative(FEATURES, file)} -> ${target}`];
    });
  });
}

describe('the PWA’s features', () => {
  it('import another feature only through its api/ folder: pages that combine features are composed in app/', () => {
    expect(crossFeatureImports()).toEqual([]);
  });

  it('call the API only through the typed client: no API path written by hand, in the app or its browser tests', () => {
    // The first segment of every route ("bookings", "appointmentOptions", "schedule.csv"): a quoted string or
    // template that starts with one is a hand-written API path. pathOf and client (lib/route-paths.ts, lib/client.ts) build them all.
    const segments = [...new Set(Object.keys(routes).map((key) => key.split(' ')[1]?.split('/')[1] ?? ''))];
    const escaped = segments.map((segment) => segment.replace(/[.]/g, '\\.')).join('|');
    const handWritten = new RegExp(`['"\`]/(?:api/)?(?:${escaped})(?=[/?'"\`$])`);
    const builders = ['pwa/src/lib/client.ts', 'pwa/src/lib/route-paths.ts'];
    const linesMatching = (files: string[], pattern: RegExp) =>
      files.flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(
      linesMatching(
        sourcesUnder('pwa/src').filter((file) => !builders.includes(file)),
        handWritten,
      ),
    ).toEqual([]);
    // The browser tests' API calls too (apiPath in e2e/support.ts), where page paths such as /book are no API's.
    const e2e = readdirSync('e2e')
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join('e2e', name));
    expect(linesMatching(e2e, new RegExp(`['"\`]/api/(?:${escaped})(?=[/?'"\`$])`))).toEqual([]);
  });
});
