// Checks the built PWA (npm run test:build, after npm run build): the staff screens' forms check
// what is typed with the contract's own schemas (src/lib/contract-form.ts), so valibot, which the
// Worker validates with, is in their code; the patient pages import the contract for its TypeScript
// types only, so valibot never reaches what they load. Every valibot schema carries its vendor name
// ("~standard".vendor), so built code that holds a schema holds that string (quoted in any of
// JavaScript's three ways).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FRAMES, frameName } from '../../contract/frames.ts';
import { dist, firstLoadOf, read, staticImportsOf } from './built-files.ts';

const VALIBOT = /["'`]valibot["'`]/;
type RoutePreload = { path: string; modules: string[] };

/** A route's modules beyond the app's own, and every module they import statically. */
function modulesOf(route: RoutePreload | undefined): string[] {
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    staticImportsOf(url).forEach(visit);
  };
  route?.modules.forEach(visit);
  return [...seen];
}

describe('the built PWA', () => {
  if (!existsSync(dist)) throw new Error('Build the PWA first: npm run build');
  const routes = JSON.parse(read('route-preloads.json')) as RoutePreload[];
  const route = (path: string) => routes.find((r) => r.path === path);

  it('loads no valibot schema on a patient page: the landing page, the app and every framed page', () => {
    const loaded = [
      ...firstLoadOf('index.html'),
      ...FRAMES.flatMap((path) => [...firstLoadOf(`${frameName(path)}.html`), ...modulesOf(route(path))]),
    ];
    expect(loaded.length).toBeGreaterThan(FRAMES.length);
    expect([...new Set(loaded)].filter((file) => VALIBOT.test(read(file)))).toEqual([]);
  });

  it('checks the Treatments, Chairs and Specialties forms with the contract’s schemas', () => {
    for (const path of ['/dashboard/treatments', '/dashboard/chairs', '/dashboard/specialties']) {
      expect(
        modulesOf(route(path)).some((file) => VALIBOT.test(read(file))),
        path,
      ).toBe(true);
    }
  });
});
