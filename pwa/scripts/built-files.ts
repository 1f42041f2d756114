// Reading the built PWA (pwa/dist) in the build tests: its files and the modules each loads statically.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Window } from 'happy-dom';
import { parseSync } from 'vite';

export const dist = new URL('../dist/', import.meta.url).pathname;

export const read = (url: string) => readFileSync(join(dist, url), 'utf8');

/** The URLs (like /assets/index-x.js) that `html` loads as modules: its module scripts and modulepreloads. */
export function moduleUrlsOf(html: string): string[] {
  const document = new new Window().DOMParser().parseFromString(html, 'text/html');
  return [
    ...[...document.querySelectorAll('script[type="module"][src]')].map((el) => el.getAttribute('src') ?? ''),
    ...[...document.querySelectorAll('link[rel="modulepreload"][href]')].map((el) => el.getAttribute('href') ?? ''),
  ];
}

/** The files a built module imports statically (import … from, export … from; never import()). */
export function staticImportsOf(url: string): string[] {
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

/** The files a built module loads through import('…') with a literal name. */
export function dynamicImportsOf(url: string): string[] {
  return [...read(url).matchAll(/\bimport\(`(\.\/[^`]+\.js)`\)/g)].map(([, file]) =>
    posix.join(posix.dirname(url), file ?? ''),
  );
}

/**
 * Every JavaScript file `page` (an HTML file) loads before the app renders: its modules, the app its entry
 * starts once the page has painted (src/main.tsx's import of start.tsx), and their static imports.
 */
export function firstLoadOf(page: string): string[] {
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    staticImportsOf(url).forEach(visit);
  };
  const entries = moduleUrlsOf(read(page));
  entries.forEach(visit);
  entries.flatMap(dynamicImportsOf).forEach(visit);
  return [...seen].sort();
}
