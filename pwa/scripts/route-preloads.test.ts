// Checks the built PWA (run after `npm run build`: npm run test:build): route-preloads.json, which
// the Worker turns into the app shell's `Link: rel=modulepreload` header, lists for each page a
// patient opens that page's own chunk and every file it imports that the shell does not load
// already, read from the built code itself; no Firebase on a signed-in page; all of it precached.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dist, firstLoadOf, read, staticImportsOf } from './built-files.ts';
import type { RoutePreload } from './route-preloads.ts';

/** The routes and the name Vite gives their page's chunk (the source file's name). */
const PAGES = [
  { path: '/login', chunk: 'login-page', signedIn: false },
  { path: '/signup', chunk: 'signup-page', signedIn: false },
  { path: '/appointment', chunk: 'appointment-page', signedIn: true },
  { path: '/dashboard', chunk: 'my-appointments-page', signedIn: true, layout: 'dashboard-layout' },
  { path: '/dashboard/payment/:id', chunk: 'payment-page', signedIn: true, layout: 'dashboard-layout' },
];

/** A built file named after `name`, like /assets/login-page-DHQUZ8WC.js. */
const isChunkOf =
  (name: string, extension = 'js') =>
  (url: string) =>
    new RegExp(`^/assets/${name}-[\\w-]{8}\\.${extension}$`).test(url);

describe('the files announced with each page’s shell', () => {
  let preloads: RoutePreload[];
  let shellLoads: string[];
  let sw: string;
  beforeAll(() => {
    if (!existsSync(join(dist, 'route-preloads.json'))) throw new Error('Build the PWA first: npm run build');
    preloads = JSON.parse(read('route-preloads.json')) as RoutePreload[];
    shellLoads = firstLoadOf('shell.html');
    sw = read('sw.js');
  });

  const preloadOf = (path: string) => {
    const found = preloads.find((route) => route.path === path);
    if (!found) throw new Error(`route-preloads.json has no ${path}`);
    return found;
  };

  for (const { path, chunk, signedIn, layout } of PAGES) {
    describe(path, () => {
      it(`preloads the page’s own chunk (${chunk})${layout ? ` and the ${layout}` : ''}`, () => {
        const { modules } = preloadOf(path);
        expect(modules.filter(isChunkOf(chunk))).toHaveLength(1);
        if (layout) expect(modules.filter(isChunkOf(layout))).toHaveLength(1);
      });

      it('preloads every file those import statically, except what the shell loads already', () => {
        const { modules } = preloadOf(path);
        const needed = new Set<string>();
        const visit = (url: string) => {
          if (needed.has(url) || shellLoads.includes(url)) return;
          needed.add(url);
          staticImportsOf(url).forEach(visit);
        };
        modules.filter((url) => isChunkOf(chunk)(url) || (layout && isChunkOf(layout)(url))).forEach(visit);
        expect([...needed].sort()).toEqual([...modules].sort());
      });

      it('comes in few files: its own, its layout, the helpers pages share, and at most two of its parts', () => {
        // Each file costs the main thread a link and a task (scripts/chunk-groups.ts): My Appointments had 17.
        const { modules } = preloadOf(path);
        expect(modules.filter(isChunkOf('shared'))).toHaveLength(1);
        expect(modules.length).toBeLessThanOrEqual(layout ? 5 : 4);
      });

      if (signedIn) {
        it('carries no Firebase SDK (a signed-in page runs without it)', () => {
          expect(preloadOf(path).modules.filter((url) => read(url).includes('@firebase/'))).toEqual([]);
        });
      }

      it('lists only built files that the service worker precaches', () => {
        const { modules, styles } = preloadOf(path);
        for (const url of [...modules, ...styles]) {
          expect(existsSync(join(dist, url)), url).toBe(true);
          expect(sw, url).toContain(`"url":"${url.slice(1)}"`);
        }
      });
    });
  }

  it('shares helpers that bring nothing with them but what the app’s start has loaded', () => {
    const [shared, ...others] = [...new Set(preloads.flatMap(({ modules }) => modules.filter(isChunkOf('shared'))))];
    expect(others).toEqual([]);
    expect(staticImportsOf(shared ?? '').filter((url) => !shellLoads.includes(url))).toEqual([]);
    expect(read(shared ?? '')).not.toContain('Dexie');
  });

  it('preloads the page’s CSS, where it has some', () => {
    const css = readdirSync(join(dist, 'assets')).map((file) => `/assets/${file}`);
    for (const { path, chunk } of PAGES) {
      const own = css.filter(isChunkOf(chunk, 'css'));
      expect(preloadOf(path).styles, path).toEqual(expect.arrayContaining(own));
    }
    expect(preloadOf('/appointment').styles.filter(isChunkOf('appointment-page', 'css'))).toHaveLength(1);
  });
});
