// Checks the built PWA (npm run test:build, after npm run build): the PWA imports the shared contract
// (contract/) for its TypeScript types only, so valibot, which the Worker validates with, never
// reaches a browser. Every valibot schema carries its vendor name ("~standard".vendor), so built
// code that holds a schema holds that string (quoted in any of JavaScript's three ways).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const assets = new URL('../dist/assets/', import.meta.url).pathname;
const VALIBOT = /["'`]valibot["'`]/;

describe('the built PWA', () => {
  it('holds no valibot schema: the contract is imported for its types only', () => {
    if (!existsSync(assets)) throw new Error('Build the PWA first: npm run build');
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => VALIBOT.test(readFileSync(join(assets, file), 'utf8')))).toEqual([]);
  });
});
