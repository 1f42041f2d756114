/**
 * `npm test` step (check:docs): every reference of the code to the product reference
 * (docs/product.md, then # and a heading's anchor) names a heading of docs/product.md, and no code
 * cites the numbered sections of the original specification, which is in no file of the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
export const PRODUCT_DOC = 'docs/product.md';
const SEARCHED = ['worker', 'pwa', 'scripts', 'e2e', 'migrations'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.prerender', '.wrangler']);
const SOURCE = /\.(ts|tsx|js|css|sql|html|toml)$/;
const REFERENCE = /docs\/product\.md#([\w-]+)/g;
const OLD_CITATION = /SPEC\s*§/;

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Every heading's anchor in a Markdown text; a duplicate anchor is an error (GitHub would number it). */
export function anchorsIn(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading = ''] of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const anchor = anchorOf(heading);
    if (anchors.has(anchor)) throw new Error(`${PRODUCT_DOC}: two headings make the anchor #${anchor}`);
    anchors.add(anchor);
  }
  return anchors;
}

/** What is wrong with one file's references, as `file:line: problem` lines. */
export function problemsIn(file: string, text: string, anchors: Set<string>): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const [, anchor = ''] of line.matchAll(REFERENCE)) {
      if (!anchors.has(anchor)) problems.push(`${where}: ${PRODUCT_DOC}#${anchor} names no heading of ${PRODUCT_DOC}`);
    }
    if (OLD_CITATION.test(line))
      problems.push(
        `${where}: cites a numbered section of the original specification; point to a section of ${PRODUCT_DOC} instead`,
      );
  });
  return problems;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

// Run as a script (node scripts/doc-links.ts), not when a test imports it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(join(root, PRODUCT_DOC), 'utf8');
  const anchors = anchorsIn(doc);
  const problems = problemsIn(PRODUCT_DOC, doc.replace(/\]\(#/g, `](${PRODUCT_DOC}#`), anchors);
  let references = 0;
  for (const top of SEARCHED) {
    for (const file of sourceFiles(join(root, top))) {
      const text = readFileSync(file, 'utf8');
      references += [...text.matchAll(REFERENCE)].length;
      problems.push(...problemsIn(relative(root, file), text, anchors));
    }
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`check:docs: ${references} references to ${PRODUCT_DOC} name existing headings`);
}
