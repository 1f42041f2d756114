/**
 * `npm test` step: the Worker tests (@cloudflare/vitest-plugin) must run on the very wrangler,
 * miniflare and workerd that `npm start` and `wrangler dev` run. The plugin pins its own versions;
 * package.json `overrides` points them at the app's. This resolves each package the way Node does
 * from each side and fails when the two sides reach different copies or versions.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface Resolved {
  dir: string;
  version: string;
}

/** Where `name` resolves from `fromDir` (Node's own node_modules lookup; some packages export no package.json). */
function resolvePackage(name: string, fromDir: string): Resolved {
  const lookup = createRequire(join(fromDir, 'noop.js')).resolve.paths(name) ?? [];
  for (const modules of lookup) {
    const manifest = join(modules, name, 'package.json');
    if (existsSync(manifest)) {
      return {
        dir: realpathSync(join(modules, name)),
        version: (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version,
      };
    }
  }
  throw new Error(`${name} is not installed (from ${fromDir}); run npm install`);
}

/** wrangler, and the miniflare and workerd that wrangler runs, as seen from `fromDir`. */
function runtimeFrom(fromDir: string) {
  const wrangler = resolvePackage('wrangler', fromDir);
  const miniflare = resolvePackage('miniflare', wrangler.dir);
  const workerd = resolvePackage('workerd', miniflare.dir);
  return { wrangler, miniflare, workerd };
}

const root = new URL('..', import.meta.url).pathname;
const dev = runtimeFrom(root);
const plugin = resolvePackage('@cloudflare/vitest-plugin', root);
// The plugin starts workerd through its own miniflare import, and reads wrangler.toml through its own wrangler.
const testMiniflare = resolvePackage('miniflare', plugin.dir);
const test = {
  wrangler: resolvePackage('wrangler', plugin.dir),
  miniflare: testMiniflare,
  workerd: resolvePackage('workerd', testMiniflare.dir),
};

const differences = (['wrangler', 'miniflare', 'workerd'] as const).filter((name) => dev[name].dir !== test[name].dir);
if (differences.length > 0) {
  for (const name of differences) {
    console.error(
      `runtime: the Worker tests use ${name} ${test[name].version} (${test[name].dir}), npm start uses ${dev[name].version} (${dev[name].dir})`,
    );
  }
  console.error(
    'runtime: set "overrides" for @cloudflare/vitest-plugin in package.json to the app\'s wrangler and its miniflare, then npm install',
  );
  process.exit(1);
}
console.log(
  `runtime: Worker tests and npm start share wrangler ${dev.wrangler.version}, miniflare ${dev.miniflare.version}, workerd ${dev.workerd.version}`,
);
