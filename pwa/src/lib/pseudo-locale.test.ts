import { expect, it } from 'vitest';

// The layout sweep's pseudo-locale (lib/i18n.tsx): on before the app's words load, as a test's browser sets it.
localStorage.setItem('clinic.pseudo-locale', 'on');
const { english: words, PSEUDO_LOCALE } = await import('./i18n.tsx');

it('accents every letter it can and makes each message 40% longer, keeping placeholders, plurals and selects', () => {
  expect(PSEUDO_LOCALE).toBe(true);
  expect(words('hero.title')).toBe('[Ýöür ñéw smîlé stárts héré ~~~~ ~~~~ ~~~]');
  expect(words('card.spaces', { count: 2 })).toBe('[2 spáçés áváîláblé ~~~~ ~~~~]');
  expect(words('card.spaces', { count: 1 })).toMatch(/^\[1 spáçé áváîláblé [~ ]+\]$/);
  expect(words('receipt.when', { day: 'Dec 3, 2026', slot: '10.00 AM', cancelled: 'yes' })).toBe(
    '[Dec 3, 2026 át 10.00 AM (çáñçélléd) ~~~~ ~~~]',
  );
});
