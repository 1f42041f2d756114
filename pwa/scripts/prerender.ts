// Prerenders the landing page into the built index.html (so its first paint needs no JavaScript)
// and keeps the untouched build as shell.html, which the Worker serves for every other path.
// Writes route-preloads.json, the files each app route needs beyond the shell's (the Worker announces
// them with the shell; route-preloads.ts). Then generates the service worker, whose precache must
// carry the two final HTML files.
// Run after `vite build`: node pwa/scripts/prerender.ts
import { createHash } from 'node:crypto';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, resolveConfig } from 'vite';
import type { VitePluginPWAAPI } from 'vite-plugin-pwa';
import { ROUTES_FILE, routePreloads, type ViteManifest } from './route-preloads.ts';

const pwaRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// Inside the project (not the OS temp dir) so the SSR bundle resolves react & co from node_modules.
const ssrOut = fileURLToPath(new URL('../.prerender/', import.meta.url));
const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const ROOT_TAG = '<div id="root"></div>';

/**
 * Writes dist/sw.js with vite-plugin-pwa's own options (vite.config.ts), through the plugin's API:
 * the precache is globbed now, so it lists the final files with their current revisions.
 */
async function generateServiceWorker() {
  const config = await resolveConfig({ configFile, root: pwaRoot, logLevel: 'warn' }, 'build', 'production');
  const pwa = config.plugins.find((plugin) => plugin.name === 'vite-plugin-pwa')?.api as VitePluginPWAAPI | undefined;
  if (!pwa || pwa.disabled) throw new Error('vite-plugin-pwa is missing from pwa/vite.config.ts');
  await pwa.generateSW();
}

/** Fails the build unless sw.js precaches `file` at the revision of its final content (md5, as workbox does). */
async function assertPrecached(sw: string, file: string) {
  const revision = createHash('md5')
    .update(await readFile(`${dist}${file}`))
    .digest('hex');
  const entry = new RegExp(`url:\\s*"${file.replace('.', '\\.')}",\\s*revision:\\s*"([0-9a-f]+)"`).exec(sw);
  if (!entry) throw new Error(`pwa/dist/sw.js does not precache ${file}`);
  if (entry[1] !== revision)
    throw new Error(`pwa/dist/sw.js precaches ${file} at ${entry[1]}, but the file is at ${revision}`);
}

try {
  await build({
    configFile,
    root: pwaRoot,
    logLevel: 'warn',
    build: {
      ssr: 'src/entry-server.tsx',
      outDir: ssrOut,
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
    },
  });

  const { render } = (await import(pathToFileURL(`${ssrOut}entry-server.js`).href)) as {
    render(path: string): Promise<string>;
  };
  const appHtml = await render('/');

  const indexPath = `${dist}index.html`;
  const template = await readFile(indexPath, 'utf8');
  if (!template.includes(ROOT_TAG)) throw new Error(`${indexPath} has no empty ${ROOT_TAG}`);

  await copyFile(indexPath, `${dist}shell.html`);
  await writeFile(indexPath, template.replace(ROOT_TAG, `<div id="root">${appHtml}</div>`));
  console.log(
    `prerendered / into pwa/dist/index.html (${appHtml.length} bytes of markup); shell at pwa/dist/shell.html`,
  );

  // Vite's manifest is read here only: it is not served (nor precached).
  const manifest = JSON.parse(await readFile(`${dist}.vite/manifest.json`, 'utf8')) as ViteManifest;
  const preloads = routePreloads(manifest, await readFile(`${pwaRoot}${ROUTES_FILE}`, 'utf8'));
  await writeFile(`${dist}route-preloads.json`, `${JSON.stringify(preloads, null, 2)}\n`);
  await rm(`${dist}.vite`, { recursive: true, force: true });
  console.log(`pwa/dist/route-preloads.json: the files of ${preloads.length} lazy routes, for the Worker to preload`);

  await generateServiceWorker();
  const sw = await readFile(`${dist}sw.js`, 'utf8');
  await assertPrecached(sw, 'index.html');
  await assertPrecached(sw, 'shell.html');
  console.log('service worker at pwa/dist/sw.js, precaching the final index.html and shell.html');
} finally {
  await rm(ssrOut, { recursive: true, force: true });
}
