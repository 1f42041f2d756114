import { describe, expect, it } from 'vitest';
import { anchorOf, anchorsIn, problemsIn } from './doc-links.ts';

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
    // Spelled in pieces, so that check:docs, which reads this file too, does not see them.
    const missing = ['docs/product.md', 'booking-form'].join('#');
    const code = ['// docs/product.md#booking-modal: fine', `// ${missing}`, `// ${'SPEC'} §2 booking modal`].join(
      '\n',
    );
    expect(problemsIn('x.ts', code, anchors)).toEqual([
      `x.ts:2: ${missing} names no heading of docs/product.md`,
      'x.ts:3: cites a numbered section of the original specification; point to a section of docs/product.md instead',
    ]);
  });
});
