// Issue 48: the app's words are in its catalogs, every one in every language. Reads the sources with
// TypeScript's own parser: a string a screen shows, written outside the catalogs, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../contract/languages.ts';
import { CATALOGS } from '../pwa/src/i18n/catalogs.ts';
import { en } from '../pwa/src/i18n/en.ts';
import { argumentsOf } from './icu-arguments.ts';

describe('the app’s catalogs', () => {
  it('have every English message in every language, parsing as ICU with the same placeholders', () => {
    const keys = Object.keys(en).sort();
    for (const language of LANGUAGES) {
      const catalog: Record<string, string> = CATALOGS[language];
      expect(Object.keys(catalog).sort(), language).toEqual(keys);
      for (const key of keys)
        expect(argumentsOf(catalog[key] ?? ''), `${language} ${key}`).toEqual(argumentsOf(en[key as keyof typeof en]));
    }
  });

  it('say something else than English in Spanish and French, but for names and codes', () => {
    // Words that are the same in both: a brand, an abbreviation, a placeholder alone.
    const same = (text: string) => !/\p{L}{3,}/u.test(text.replace(/\{[^{}]*\}/g, '')) || SAME_WORDS.has(text);
    for (const language of ['es', 'fr'] as const) {
      const catalog: Record<string, string> = CATALOGS[language];
      const untranslated = Object.entries(en)
        .filter(([key, text]) => catalog[key] === text && !same(text))
        .map(([key]) => key);
      expect(untranslated, language).toEqual([]);
    }
  });
});

/** Messages that read the same in English, Spanish or French. */
const SAME_WORDS = new Set([
  'Demo',
  'CVC',
  'Marketing',
  'Design',
  'Legal',
  'Services',
  'Contact',
  'Actions',
  'Date',
  'Menu',
  'Patient',
  'Texts',
  'SMS',
  'Total',
]);

// The screens still in English only (docs/languages.md#not-yet): staff screens and patient pages not
// translated yet. A file leaves this list once its words are in the catalogs; a new screen is written
// with them from the start.
const NOT_YET = new Set([
  'app/guards/require-admin.tsx',
  'app/pages/privacy.tsx',
  'components/stranded-bookings.tsx',
  'features/audit/components/activity-page.tsx',
  'features/clinic-settings/components/clinic-settings-page.tsx',
  'features/clinic-settings/components/message-settings-form.tsx',
  'features/clinic-settings/components/undelivered.tsx',
  'features/clinic-setup/components/chairs-page.tsx',
  'features/clinic-setup/components/clinic-hours-page.tsx',
  'features/clinic-setup/components/closures-section.tsx',
  'features/clinic-setup/components/hours-editor.tsx',
  'features/clinic-setup/components/name-forms.tsx',
  'features/clinic-setup/components/specialties-page.tsx',
  'features/clinic-setup/components/treatment-dialog.tsx',
  'features/clinic-setup/components/treatments-page.tsx',
  'features/developers/api-page.tsx',
  'features/doctors/components/add-doctor-page.tsx',
  'features/doctors/components/doctor-dialog.tsx',
  'features/doctors/components/manage-doctors-page.tsx',
  'features/doctors/components/working-hours-fields.tsx',
  'features/forms/components/form-answers.tsx',
  'features/forms/components/form-templates-page.tsx',
  'features/forms/components/forms-list.tsx',
  'features/forms/components/forms-page.tsx',
  'features/forms/components/kiosk-page.tsx',
  'features/forms/components/link-forms-page.tsx',
  'features/forms/components/questionnaire-form.tsx',
  'features/insights/components/insights-page.tsx',
  'features/recalls/components/recalls-page.tsx',
  'features/refunds/components/refunds-due-page.tsx',
  'features/reviews/components/manage-reviews-page.tsx',
  'features/reviews/components/review-page.tsx',
  'features/schedule/components/booking-details-dialog.tsx',
  'features/schedule/components/day-grid.tsx',
  'features/schedule/components/pending-desk-writes.tsx',
  'features/schedule/components/phone-booking-dialog.tsx',
  'features/schedule/components/schedule-page.tsx',
  'features/users/components/all-users-page.tsx',
]);

/** The attributes whose text a person reads or hears. */
const SPOKEN = new Set([
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'label',
  'confirmLabel',
  'cancelLabel',
  'caption',
  'header',
  'hint',
]);
const hasWords = (text: string) => /\p{L}{2,}/u.test(text);

/** Every string of `file` a screen shows outside the catalogs: JSX text, spoken attributes, toasts. */
function wordsOutsideCatalogs(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const { program, errors } = parseSync(file, code);
  if (errors.length > 0) throw new Error(`cannot parse ${file}: ${errors[0]?.message}`);
  const found: string[] = [];
  const at = (node: Node) => {
    const line = code.slice(0, node.start).split('\n').length;
    found.push(`${line}: ${code.slice(node.start, node.end).trim().slice(0, 60)}`);
  };
  /** A string literal or template with words outside its `${…}` parts (a catalog's key is no words). */
  const wordy = (node: Node | null | undefined) =>
    (node?.type === 'Literal' && typeof node.value === 'string' && hasWords(node.value) && !(node.value in en)) ||
    (node?.type === 'TemplateLiteral' &&
      hasWords((node.quasis as Node[]).map((quasi) => (quasi.value as { raw: string }).raw).join(' ')));
  const visit = (node: Node) => {
    if (node.type === 'JSXText' && hasWords(String(node.value))) at(node);
    if (node.type === 'JSXExpressionContainer' && wordy(node.expression as Node)) at(node);
    if (
      node.type === 'CallExpression' &&
      /^notify\.\w+$/.test(code.slice((node.callee as Node).start, (node.callee as Node).end)) &&
      wordy((node.arguments as Node[])[0])
    )
      at(node);
    if (node.type === 'JSXAttribute') {
      // An attribute's value is words only where a person reads or hears it (not an id, a class or a link).
      const value = node.value as Node | null;
      const inner = value?.type === 'JSXExpressionContainer' ? (value.expression as Node) : value;
      if (SPOKEN.has(String((node.name as Node).name)) && wordy(inner)) at(node);
      if (inner) visit(inner);
      return;
    }
    for (const value of Object.values(node))
      for (const child of Array.isArray(value) ? value : [value])
        if (child && typeof child === 'object' && typeof (child as Node).type === 'string') visit(child as Node);
  };
  visit(program as unknown as Node);
  return found;
}

/** An ESTree node as oxc's parser answers it. */
type Node = { type: string; start: number; end: number; [field: string]: unknown };

const SRC = 'pwa/src';
const screens = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : screens(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });

describe('the app’s screens', () => {
  const scanned = screens(SRC).map((file) => [relative(SRC, file), wordsOutsideCatalogs(file)] as const);

  it('show no words but the catalogs’ (the screens not translated yet aside)', () => {
    expect(Object.fromEntries(scanned.filter(([file, words]) => words.length > 0 && !NOT_YET.has(file)))).toEqual({});
  });

  it('list as not translated yet only screens that still have words of their own', () => {
    const done = scanned.filter(([file, words]) => NOT_YET.has(file) && words.length === 0).map(([file]) => file);
    expect(done, 'translated: take them off NOT_YET').toEqual([]);
    expect([...NOT_YET].filter((file) => !scanned.some(([name]) => name === file))).toEqual([]);
  });
});
