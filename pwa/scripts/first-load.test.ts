// Checks the built PWA (run after `npm run build`: npm run test:build): the JavaScript the landing
// page loads before it is interactive (index.html's module script, its modulepreloads and every
// file they import statically) carries no Firebase SDK, no Dexie and no service worker
// registration. Those load later, through import(), on the pages and at the moment that need them.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dist, firstLoadOf, read } from './built-files.ts';

/** Each by a string its built code always holds: the package names Firebase registers, Dexie's own name, the worker's URL. */
const LAZY_CODE = [
  { library: 'the Firebase SDK', marker: '@firebase/' },
  { library: 'Dexie', marker: 'Dexie' },
  { library: 'the service worker registration', marker: '/sw.js' },
];

describe('the landing page’s first load', () => {
  let firstLoad: string[];
  let allScripts: string[];
  beforeAll(() => {
    if (!existsSync(join(dist, 'index.html'))) throw new Error('Build the PWA first: npm run build');
    firstLoad = firstLoadOf('index.html');
    allScripts = readdirSync(join(dist, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => `/assets/${f}`);
  });

  it('is the entry script and the files it imports statically, not every built file', () => {
    expect(firstLoad.length).toBeGreaterThan(1);
    expect(firstLoad.every((url) => allScripts.includes(url))).toBe(true);
    expect(firstLoad.length).toBeLessThan(allScripts.length);
  });

  for (const { library, marker } of LAZY_CODE) {
    it(`carries no code of ${library}, which is built into a file loaded later`, () => {
      expect(firstLoad.filter((url) => read(url).includes(marker))).toEqual([]);
      expect(allScripts.filter((url) => read(url).includes(marker))).not.toEqual([]);
    });
  }
});
