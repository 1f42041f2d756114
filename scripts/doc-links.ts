/**
 * `npm test` step (check:docs): every link of the README and the docs (docs/*.md,
 * migrations/README.md) resolves, to a file that exists and, for a Markdown file, to one of its
 * headings; every `docs/<file>.md#anchor` the code cites names a heading of that file; and no code
 * cites the numbered sections of the original specification, which is in no file of the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
export const PRODUCT_DOC = 'docs/product.md';
/** Where the code that cites the docs lives. */
const SEARCHED = ['worker', 'pwa', 'scripts', 'e2e', 'migrations', 'contract'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.page-renderer', '.wrangler']);
/** The checker's own tests write broken links on purpose. */
const SKIPPED_FILES = new Set(['doc-links.test.ts']);
const SOURCE = /\.(ts|tsx|js|css|sql|html|toml)$/;
/** A citation in code: docs/<file>.md, with or without #anchor. */
const REFERENCE = /docs\/([\w-]+\.md)(?:#([\w-]+))?/g;
/** A link in Markdown: [text](target) or <img src="target">. */
const MARKDOWN_LINK = /\]\(([^)\s]+)\)|<img[^>]*\ssrc="([^"]+)"/g;
const OLD_CITATION = /SPEC\s*§/;

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Every heading's anchor in a Markdown text; a duplicate anchor is an error (GitHub would number it). */
export function anchorsIn(markdown: string, file = PRODUCT_DOC): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading = ''] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const anchor = anchorOf(heading);
    if (anchors.has(anchor)) throw new Error(`${file}: two headings make the anchor #${anchor}`);
    anchors.add(anchor);
  }
  return anchors;
}

/** The anchors of a Markdown file of the repository, read once (null: no such file). */
const anchorsOfFile = (() => {
  const read = new Map<string, Set<string> | null>();
  return (file: string): Set<string> | null => {
    if (!read.has(file)) {
      const path = join(root, file);
      read.set(file, existsSync(path) ? anchorsIn(readFileSync(path, 'utf8'), file) : null);
    }
    return read.get(file) ?? null;
  };
})();

/** What is wrong with one code file's citations of the docs, as `file:line: problem` lines. */
export function problemsIn(
  file: string,
  text: string,
  anchorsOf: (doc: string) => Set<string> | null = anchorsOfFile,
): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const [, doc = '', anchor] of line.matchAll(REFERENCE)) {
      const anchors = anchorsOf(`docs/${doc}`);
      if (!anchors) problems.push(`${where}: docs/${doc} does not exist`);
      else if (anchor && !anchors.has(anchor))
        problems.push(`${where}: docs/${doc}#${anchor} names no heading of docs/${doc}`);
    }
    if (OLD_CITATION.test(line))
      problems.push(
        `${where}: cites a numbered section of the original specification; point to a section of ${PRODUCT_DOC} instead`,
      );
  });
  return problems;
}

/** What is wrong with one Markdown file's links (relative to it), as `file:line: problem` lines. */
export function linkProblemsIn(
  file: string,
  text: string,
  exists: (path: string) => boolean = (path) => existsSync(join(root, path)),
  anchorsOf: (doc: string) => Set<string> | null = anchorsOfFile,
): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const [, markdown, image] of line.matchAll(MARKDOWN_LINK)) {
      const target = markdown ?? image ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, webcal:…
      const [path = '', anchor] = target.split('#');
      const linked = path ? normalize(join(dirname(file), path)) : file;
      if (!exists(linked)) {
        problems.push(`${where}: ${target} links to ${linked}, which does not exist`);
        continue;
      }
      if (anchor && linked.endsWith('.md') && !anchorsOf(linked)?.has(anchor)) {
        problems.push(`${where}: ${target} names no heading of ${linked}`);
      }
    }
  });
  return problems;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name) || SKIPPED_FILES.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

// Run as a script (node scripts/doc-links.ts), not when a test imports it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const markdown = [
    'README.md',
    'migrations/README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const problems: string[] = [];
  let links = 0;
  for (const file of markdown) {
    const text = readFileSync(join(root, file), 'utf8');
    links += [...text.matchAll(MARKDOWN_LINK)].length;
    problems.push(...linkProblemsIn(file, text));
  }
  let citations = 0;
  for (const top of SEARCHED) {
    for (const file of sourceFiles(join(root, top))) {
      const text = readFileSync(file, 'utf8');
      citations += [...text.matchAll(REFERENCE)].length;
      problems.push(...problemsIn(relative(root, file), text));
    }
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(
    `check:docs: ${links} links of ${markdown.length} Markdown files and ${citations} citations of docs/ in the code resolve`,
  );
}
