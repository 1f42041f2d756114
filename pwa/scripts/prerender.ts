// Prerenders the landing page into the built index.html (so its first paint needs no JavaScript)
// and keeps the untouched build as shell.html, which the Worker serves for every other path.
// Run after `vite build`: node pwa/scripts/prerender.ts
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const pwaRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// Inside the project (not the OS temp dir) so the SSR bundle resolves react & co from node_modules.
const ssrOut = fileURLToPath(new URL('../.prerender/', import.meta.url));
const ROOT_TAG = '<div id="root"></div>';

try {
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
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
  console.log(`prerendered / into pwa/dist/index.html (${appHtml.length} bytes of markup); shell at pwa/dist/shell.html`);
} finally {
  await rm(ssrOut, { recursive: true, force: true });
}
