// Checks the built PWA (run after `npm run build`: npm run test:build): the JavaScript the landing
// page loads before it is interactive (index.html's module script, its modulepreloads and every
// file they import statically) carries no Firebase SDK, no Dexie and no service worker
// registration. Those load later, through import(), on the pages and at the moment that need them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Window } from 'happy-dom';
import { parseSync } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

const dist = new URL('../dist/', import.meta.url).pathname;

/** Each by a string its built code always holds: the package names Firebase registers, Dexie's own name, the worker's URL. */
const LAZY_CODE = [
  { library: 'the Firebase SDK', marker: '@firebase/' },
  { library: 'Dexie', marker: 'Dexie' },
  { library: 'the service worker registration', marker: '/sw.js' },
];

const read = (url: string) => readFileSync(join(dist, url), 'utf8');

/** The URLs (like /assets/index-x.js) that `html` loads as modules: its module scripts and modulepreloads. */
function moduleUrlsOf(html: string): string[] {
  const document = new new Window().DOMParser().parseFromString(html, 'text/html');
  return [
    ...[...document.querySelectorAll('script[type="module"][src]')].map((el) => el.getAttribute('src') ?? ''),
    ...[...document.querySelectorAll('link[rel="modulepreload"][href]')].map((el) => el.getAttribute('href') ?? ''),
  ];
}

/** The files a built module imports statically (import … from, export … from; never import()). */
function staticImportsOf(url: string): string[] {
  const { program, errors } = parseSync(url, read(url));
  if (errors.length > 0) throw new Error(`cannot parse ${url}: ${errors[0]?.message}`);
  return program.body.flatMap((node) =>
    (node.type === 'ImportDeclaration' ||
      node.type === 'ExportNamedDeclaration' ||
      node.type === 'ExportAllDeclaration') &&
    node.source
      ? [posix.join(posix.dirname(url), node.source.value)]
      : [],
  );
}

/** Every JavaScript file loaded before the landing page's code runs. */
function firstLoadOf(page: string): string[] {
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    staticImportsOf(url).forEach(visit);
  };
  moduleUrlsOf(read(page)).forEach(visit);
  return [...seen].sort();
}

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
