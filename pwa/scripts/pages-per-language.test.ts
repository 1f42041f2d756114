// Issue 48, checked on the built PWA (after `npm run build`): the landing page and every patient page's frame are
// prerendered in each language (scripts/prerender.ts), say so in <html lang>, and have no words of the English
// page left in them: a sentence the Spanish or French page shows as the English one does is a string that went
// around the catalogs (a name the clinic or a person gave, the same in every language, aside).
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { FRAMES, frameName, localizedFile } from '../../contract/frames.ts';
import { LANGUAGES } from '../../contract/languages.ts';
import { en } from '../src/i18n/en.ts';
import { read } from './built-files.ts';

const PAGES = ['/index.html', ...FRAMES.map((path) => `/${frameName(path)}.html`)];

/** Words that are the same in every language: names, words Spanish and French borrowed, symbols. */
const NAMES = new Set([
  'Smile Dental Clinic',
  'Español',
  'English',
  'Français',
  'CVC',
  'Marketing',
  'Legal',
  'Menu',
  'Contact',
  'Services',
  'Design',
]);

/** What a person reads or hears on `html`'s page: its text and its spoken attributes, one entry each. */
function wordsOf(html: string): { lang: string | null; words: string[] } {
  const document = new new Window().DOMParser().parseFromString(html, 'text/html');
  const root = document.getElementById('root');
  const words: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) words.push(node.textContent ?? '');
    if (node.nodeType === 1) {
      const element = node as Element;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) words.push(value);
      }
      // The clinic's own details (its hours, its address) are its words, written in by the Worker.
      if (element.tagName === 'SCRIPT' || element.tagName === 'STYLE' || element.hasAttribute('data-clinic')) return;
    }
    for (const child of [...node.childNodes]) walk(child as unknown as Node);
  };
  if (root) walk(root as unknown as Node);
  return {
    lang: document.documentElement.getAttribute('lang'),
    words: words
      .map((text) => text.replace(/\s+/g, ' ').trim())
      .filter((text) => /\p{L}{2,}/u.test(text) && !NAMES.has(text)),
  };
}

describe('the pages, prerendered in each language', () => {
  for (const page of PAGES) {
    it(`${page} in each language says so, and shares no words with the English one`, () => {
      const english = wordsOf(read(page));
      expect(english.lang).toBe('en');
      expect(english.words.length, 'the English page has words').toBeGreaterThan(0);
      // Every word was in the catalog the page was rendered with: no key shows instead (the start's English is a
      // part of it, i18n/catalogs.ts's FIRST_WORDS).
      expect(english.words.filter((text) => text in en)).toEqual([]);
      for (const language of LANGUAGES.filter((other) => other !== 'en')) {
        const theirs = wordsOf(read(localizedFile(page, language)));
        expect(theirs.lang, language).toBe(language);
        expect(
          theirs.words.filter((text) => english.words.includes(text)),
          `${page} in ${language}`,
        ).toEqual([]);
      }
    });
  }
});
