// Checks the built PWA (run after `npm run build`: npm run test:build): every prerendered page paints
// with no other file and no script (its styles inline, its one module script a small entry that starts
// the app once the page has painted); and the JavaScript the landing page loads before it is
// interactive (that entry, the app it starts and every file they import statically) carries no
// Firebase SDK, no Dexie and no service worker registration. Those load later, through import(), on
// the pages and at the moment that need them.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { FRAMES, frameName } from '../../contract/frames.ts';
import { dist, dynamicImportsOf, firstLoadOf, moduleUrlsOf, read, staticImportsOf } from './built-files.ts';

/** The prerendered pages: the landing page, the shell of every other path and the patient pages' frames. */
const frames = join(dist, 'frames');
const PAGES = [
  'index.html',
  'shell.html',
  ...(existsSync(frames) ? readdirSync(frames) : []).map((f) => `frames/${f}`),
];

describe('before the first paint', () => {
  for (const page of PAGES) {
    it(`${page} needs no other file: its styles inline, no style sheet to fetch, no module preloaded`, () => {
      const document = new new Window().DOMParser().parseFromString(read(page), 'text/html');
      expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
      expect(document.querySelector('style')?.textContent).toContain('.dashboard__menu');
      // The inlined files are named by disabled links (never fetched), for Vite's loader to know they are there.
      const sheets = [...document.querySelectorAll('link[rel="stylesheet"]')];
      expect(sheets.length).toBeGreaterThan(0);
      for (const sheet of sheets) {
        expect(sheet.hasAttribute('disabled')).toBe(true);
        expect(document.querySelector('style')?.textContent).toContain(read(sheet.getAttribute('href') ?? '').trim());
      }
    });

    it(`${page} runs no script but a small entry, which starts the app once the page has painted`, () => {
      const [entry, ...others] = moduleUrlsOf(read(page));
      expect(others).toEqual([]);
      // (With the request of a signed-in page's first data: src/lib/early-data.ts.)
      expect(read(entry ?? '').length).toBeLessThan(5_000);
      expect(staticImportsOf(entry ?? '')).toEqual([]);
      // The app, and React's DOM renderer beside it (evaluated in a task of its own: start.tsx).
      expect(dynamicImportsOf(entry ?? '')).toEqual([
        expect.stringMatching(/^\/assets\/start-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/assets\/dom-renderer-[\w-]{8}\.js$/),
      ]);
      // The app brings no style sheet of its own: what it shows first is in the inline sheet already.
      expect(read(entry ?? '')).not.toMatch(/"assets\/[^"]+\.css"/);
    });

    if (page.startsWith('frames/'))
      it(`${page} names its page's code, which the entry preloads once the page has painted`, () => {
        const document = new new Window().DOMParser().parseFromString(read(page), 'text/html');
        const named = document.querySelector('meta[name="route-modules"]')?.getAttribute('content')?.split(' ');
        const route = (JSON.parse(read('route-preloads.json')) as { path: string; modules: string[] }[]).find(
          ({ path }) => FRAMES.some((framed) => framed === path && `${frameName(framed)}.html` === page),
        );
        expect(route?.modules.length).toBeGreaterThan(0);
        expect(named).toEqual(route?.modules);
      });
  }

  it('prerenders the frames of the patient pages, each with its own styles inline', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['frames/login.html', 'frames/appointment.html', 'frames/dashboard.html']),
    );
    expect(read('frames/appointment.html')).toContain('.appointment-banner');
    expect(read('frames/dashboard.html')).toContain('.bookings-table');
    expect(read('shell.html')).not.toContain('.appointment-banner');
  });
});

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

  it('comes in few files: the libraries of its first render in one, React’s DOM renderer in another', () => {
    // Each file's arrival costs the main thread a task (scripts/chunk-groups.ts): it was 14 files, then 8.
    expect(firstLoad.length).toBeLessThanOrEqual(5);
    expect(firstLoad.filter((url) => /\/start-[\w-]{8}\.js$/.test(url))).toHaveLength(1);
    const libraries = firstLoad.filter((url) => /\/libraries-[\w-]{8}\.js$/.test(url));
    expect(libraries).toHaveLength(1);
    expect(firstLoad.filter((url) => /\/dom-renderer-[\w-]{8}\.js$/.test(url))).toHaveLength(1);
  });

  for (const { library, marker } of LAZY_CODE) {
    it(`carries no code of ${library}, which is built into a file loaded later`, () => {
      expect(firstLoad.filter((url) => read(url).includes(marker))).toEqual([]);
      expect(allScripts.filter((url) => read(url).includes(marker))).not.toEqual([]);
    });
  }
});
