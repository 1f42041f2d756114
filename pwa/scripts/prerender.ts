// Prerenders at build time, with the entry's style sheet inline (so a first paint needs no other file and no
// script: the entry starts the app once the page has painted, src/main.tsx):
// - the landing page into the built index.html, hydrated in the browser;
// - the frame of each patient page in FRAMES (contract/frames.ts; its layout, headings and loading states, nobody's
//   data) into frames/<name>.html, with its own style sheets inline too: the Worker serves it for that route;
// - shell.html, the build with an empty #root, which the Worker serves for every other path;
// - the landing page and the frames again in every other language, under i18n/<language>/ (docs/languages.md),
//   each with its <html lang>: the Worker serves the reader's (worker/src/platform/page-language.ts).
// Writes route-preloads.json, the files each app route needs beyond the app's (the Worker announces them with
// the shell; route-preloads.ts). Then generates the service worker, whose precache must carry the final HTML files.
// Leaves pwa/.page-renderer/, the renderer it used, for the Worker to bundle.
// Run after `vite build`: node pwa/scripts/prerender.ts
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, resolveConfig } from 'vite';
import type { VitePluginPWAAPI } from 'vite-plugin-pwa';
import { FRAMES, frameName } from '../../contract/frames.ts';
import { LANGUAGES, type Language } from '../../contract/languages.ts';
import { ROUTES_FILE, routePreloads, type ViteManifest } from './route-preloads.ts';

const pwaRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// The app rendered to HTML (src/entry-server.tsx), one self-contained module for the build's frames here and for
// the Worker, which renders a signed-in page with its data (package.json's import "#page-renderer"). Not served.
const rendererOut = fileURLToPath(new URL('../.page-renderer/', import.meta.url));
const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const ROOT_TAG = '<div id="root"></div>';
const LANG_TAG = '<html lang="en"';

/**
 * Frames the app hydrates, as the landing page, rather than renders over: the sign-in pages, which show the same
 * to everyone (their fields and buttons wait for the code: useHydrated). Quicker than building the page again.
 */
const HYDRATED = new Set(['/login', '/signup']);

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

/**
 * Puts the entry's style sheet (the layout's, every page's shared rules and the landing page's, about 5 KB gzip)
 * and `extra` sheets (a frame's page's own) into the HTML as one <style>: a linked sheet blocks the first paint
 * until it has been fetched, an inline one costs nothing more than its bytes (issue 31; the CSP allows inline
 * styles). No sheet may have a url(), which would resolve against the page instead of /assets/.
 */
async function inlineStyleSheets(html: string, file: string, extra: string[] = []): Promise<string> {
  const links = [...html.matchAll(/<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g)];
  if (links.length !== 1) throw new Error(`${file}: expected one entry style sheet, found ${links.length}`);
  const [link, entry] = links[0] as RegExpMatchArray & [string, string];
  const sheets = await Promise.all(
    [entry, ...extra].map(async (url) => {
      const css = await readFile(`${dist}${url.slice(1)}`, 'utf8');
      if (/url\(/.test(css)) throw new Error(`${url} has a url(), which would not resolve inline`);
      return css;
    }),
  );
  // Each file named too, by a link the browser neither fetches nor applies (disabled): Vite's loader, which adds
  // a chunk's style sheets before running it, sees it there and does not fetch the sheet a second time.
  const names = [entry, ...extra].map((url) => `<link rel="stylesheet" href="${url}" disabled>`).join('');
  return html.replace(link, () => `<style>${sheets.join('')}</style>${names}`);
}

/**
 * `html` with `markup` in its #root. A frame's root says so (start.tsx renders the page over it, and hydrates the
 * landing page) and is inert until then: its form fields and links only look ready (start.tsx lifts it).
 */
const withRoot = (html: string, markup: string, frame = false) =>
  html.replace(ROOT_TAG, () => `<div id="root"${frame ? ' data-frame inert' : ''}>${markup}</div>`);

/** Fails the build unless sw.js precaches `file` at the revision of its final content (md5, as workbox does). */
async function assertPrecached(sw: string, file: string) {
  const revision = createHash('md5')
    .update(await readFile(`${dist}${file}`))
    .digest('hex');
  // The injected list's entries, `{"revision":"…","url":"…"}`, in either order.
  const entry = sw.match(/\{[^{}]*\}/g)?.find((candidate) => candidate.includes(`"url":"${file}"`));
  const precached = entry && /"revision":"([0-9a-f]+)"/.exec(entry)?.[1];
  if (!precached) throw new Error(`pwa/dist/sw.js does not precache ${file}`);
  if (precached !== revision)
    throw new Error(`pwa/dist/sw.js precaches ${file} at ${precached}, but the file is at ${revision}`);
}

try {
  await build({
    configFile,
    root: pwaRoot,
    logLevel: 'warn',
    // For workerd (React's edge build; it runs in Node too), with every dependency inside: the Worker's bundler
    // takes the file as it is.
    ssr: { target: 'webworker', noExternal: true, resolve: { conditions: ['workerd', 'worker', 'browser'] } },
    build: {
      ssr: 'src/entry-server.tsx',
      outDir: rendererOut,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: true,
      manifest: false,
      // One file (the app's chunks are the browser's: vite.config.ts).
      rollupOptions: { output: { entryFileNames: 'entry-server.js', codeSplitting: false } },
    },
  });

  const { render } = (await import(pathToFileURL(`${rendererOut}entry-server.js`).href)) as {
    render(path: string, language: Language): Promise<string>;
  };

  const indexPath = `${dist}index.html`;
  const template = await readFile(indexPath, 'utf8');
  if (!template.includes(ROOT_TAG)) throw new Error(`${indexPath} has no empty ${ROOT_TAG}`);

  // Vite's manifest is read here only: it is not served (nor precached).
  const manifest = JSON.parse(await readFile(`${dist}.vite/manifest.json`, 'utf8')) as ViteManifest;
  const preloads = routePreloads(manifest, await readFile(`${pwaRoot}${ROUTES_FILE}`, 'utf8'));

  const inlined = await inlineStyleSheets(template, 'index.html');
  await writeFile(`${dist}shell.html`, inlined);
  for (const language of LANGUAGES) {
    // English at the root, as before languages; every other under i18n/<language>/.
    const folder = language === 'en' ? dist : `${dist}i18n/${language}/`;
    const inLanguage = (html: string) => {
      if (!html.includes(LANG_TAG)) throw new Error(`index.html has no ${LANG_TAG}`);
      return html.replace(LANG_TAG, `<html lang="${language}"`);
    };
    await mkdir(`${folder}frames`, { recursive: true });
    const home = await render('/', language);
    await writeFile(`${folder}index.html`, inLanguage(withRoot(inlined, home)));
    for (const path of FRAMES) {
      const route = preloads.find((candidate) => candidate.path === path);
      if (!route) throw new Error(`${ROUTES_FILE} has no lazy route ${path} to prerender`);
      const markup = await render(path.replace(/:\w+/g, '_'), language);
      // The page's code, for the entry to preload once the page has painted (src/main.tsx).
      const page = (await inlineStyleSheets(template, path, route.styles)).replace(
        '</head>',
        () => `<meta name="route-modules" content="${route.modules.join(' ')}"></head>`,
      );
      await writeFile(`${folder}${frameName(path)}.html`, inLanguage(withRoot(page, markup, !HYDRATED.has(path))));
    }
    console.log(`prerendered / and the frames of ${FRAMES.join(', ')} in ${language} into ${folder}`);
  }
  console.log('shell at pwa/dist/shell.html');

  await writeFile(`${dist}route-preloads.json`, `${JSON.stringify(preloads, null, 2)}\n`);
  await rm(`${dist}.vite`, { recursive: true, force: true });
  console.log(`pwa/dist/route-preloads.json: the files of ${preloads.length} lazy routes, for the Worker to preload`);

  await generateServiceWorker();
  const sw = await readFile(`${dist}sw.js`, 'utf8');
  await assertPrecached(sw, 'shell.html');
  for (const language of LANGUAGES) {
    const folder = language === 'en' ? '' : `i18n/${language}/`;
    await assertPrecached(sw, `${folder}index.html`);
    for (const path of FRAMES) await assertPrecached(sw, `${folder}${frameName(path)}.html`);
  }
  console.log('service worker at pwa/dist/sw.js, precaching the final shell.html, and the pages in every language');
} catch (error) {
  // No renderer from a failed build: the Worker would render pages with an older app.
  await rm(rendererOut, { recursive: true, force: true });
  throw error;
}
