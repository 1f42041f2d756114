import { describe, expect, it } from 'vitest';
import { anchorOf, anchorsIn, linkProblemsIn, problemsIn } from './doc-links.ts';

describe('references to the product reference', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Add A Doctor')).toBe('add-a-doctor');
    expect(anchorOf('Unpaid bookings and holds')).toBe('unpaid-bookings-and-holds');
    expect(anchorOf("Who it's for: (patients)")).toBe('who-its-for-patients');
  });

  it('refuses two headings that make the same anchor', () => {
    expect(() => anchorsIn('## Payment\n\n### Payment\n')).toThrow('#payment');
  });

  it('reports a reference to a missing heading and a numbered citation of the original spec, with their lines', () => {
    const anchors = anchorsIn('# Product\n\n## Booking modal\n');
    const missing = ['docs/product.md', 'booking-form'].join('#');
    const code = ['// docs/product.md#booking-modal: fine', `// ${missing}`, `// ${'SPEC'} §2 booking modal`].join(
      '\n',
    );
    expect(problemsIn('x.ts', code, (doc) => (doc === 'docs/product.md' ? anchors : null))).toEqual([
      `x.ts:2: ${missing} names no heading of docs/product.md`,
      'x.ts:3: cites a numbered section of the original specification; point to a section of docs/product.md instead',
    ]);
  });

  it('reports a code citation of a doc that does not exist', () => {
    const cited = ['docs/gone.md', 'x'].join('#');
    expect(problemsIn('y.ts', `// ${cited}`, () => null)).toEqual(['y.ts:1: docs/gone.md does not exist']);
  });
});

describe('links between the README and the docs', () => {
  const files = new Set(['README.md', 'docs/a.md', 'docs/images/x.png']);
  const anchors = (doc: string) =>
    doc === 'docs/a.md' ? new Set(['setup']) : doc === 'README.md' ? new Set(['top']) : null;
  const check = (file: string, text: string) => linkProblemsIn(file, text, (path) => files.has(path), anchors);

  it('resolves each link relative to its file, to a file and to its heading', () => {
    expect(
      check('README.md', '[a](docs/a.md#setup) <img src="docs/images/x.png"> [top](#top) [web](https://x.y)'),
    ).toEqual([]);
    expect(check('docs/a.md', '[back](../README.md#top) [self](#setup)')).toEqual([]);
  });

  it('reports a missing file, a missing heading and a path written from the wrong folder', () => {
    expect(check('README.md', '[a](docs/b.md) [a](docs/a.md#nope)')).toEqual([
      'README.md:1: docs/b.md links to docs/b.md, which does not exist',
      'README.md:1: docs/a.md#nope names no heading of docs/a.md',
    ]);
    expect(check('docs/a.md', '[a](docs/a.md)')).toEqual([
      'docs/a.md:1: docs/a.md links to docs/docs/a.md, which does not exist',
    ]);
  });
});
