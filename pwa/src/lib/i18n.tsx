/**
 * The app in its reader's language (issue 48, docs/languages.md): Lingui's runtime with the catalogs the build
 * compiled (scripts/catalogs.ts). English's words for the app's start are in its code, the rest come with the first
 * page that needs them (`allEnglish`); another language's catalog is a chunk loaded before the first render in it.
 * One Lingui instance per language, never a global "active" one: the Worker renders pages in several at once.
 */
import { loaders } from 'virtual:messages';
import { messages as englishMessages } from 'virtual:messages/en';
import { type I18n, setupI18n } from '@lingui/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import {
  isLanguage,
  LANGUAGE_CACHE,
  LANGUAGE_COOKIE,
  type Language,
  LOCALES,
  pickLanguage,
} from '../../../contract/languages.ts';
import { formatPrice } from '../components/price.ts';
import type { MessageKey } from '../i18n/en.ts';
import { CLINIC_TIME_ZONE } from './clinic-time-zone.ts';

export type { MessageKey };
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

const instance = (language: Language, messages: I18n['messages']) =>
  setupI18n({ locale: LOCALES[language], messages: { [LOCALES[language]]: messages } });

/**
 * The pseudo-locale of the layout sweep (e2e/responsive.spec.ts): English with its letters accented and each
 * message 40% longer, in brackets, so a word outside the catalogs stands out and a box too small for a longer
 * language shows. On where the device's storage asks for it (a test's browser); never a reader's choice.
 */
export const PSEUDO_LOCALE = (() => {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem('clinic.pseudo-locale') === 'on';
  } catch {
    return false;
  }
})();

const ACCENTED: Record<string, string> = { a: 'á', e: 'é', i: 'î', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', y: 'ý' };
type Compiled = string | readonly unknown[];
/** A compiled message's text parts accented (its placeholders, `#` and select keys kept), and its length. */
function accented(message: Compiled): { message: Compiled; length: number } {
  if (typeof message === 'string') {
    if (message === '#') return { message, length: 1 };
    const text = message.replace(/[aeioucny]/gi, (ch) => {
      const lower = ACCENTED[ch.toLowerCase()] ?? ch;
      return ch === ch.toLowerCase() ? lower : lower.toUpperCase();
    });
    return { message: text, length: text.length };
  }
  let length = 0;
  const parts = message.map((part) => {
    if (typeof part === 'string') {
      const done = accented(part);
      length += done.length;
      return done.message;
    }
    const [name, kind, cases] = part as [string, string?, Record<string, Compiled>?];
    if (!cases) return part;
    const all = Object.entries(cases).map(([key, value]) => [key, accented(value)] as const);
    length += Math.max(0, ...all.map(([, done]) => done.length));
    return [name, kind, Object.fromEntries(all.map(([key, done]) => [key, done.message]))];
  });
  return { message: parts, length };
}
const pseudoLocalized = (messages: I18n['messages']) =>
  Object.fromEntries(
    Object.entries(messages).map(([key, compiled]) => {
      const { message, length } = accented(compiled as Compiled);
      // The padding in short runs, as a longer language's words are: a line may break between them.
      const padding = '~'.repeat(Math.ceil(length * 0.4)).replace(/~{4}(?=~)/g, '~~~~ ');
      return [key, ['[', ...(typeof message === 'string' ? [message] : message), ` ${padding}]`]];
    }),
  ) as I18n['messages'];

const loaded = new Map<Language, I18n>([
  ['en', instance('en', PSEUDO_LOCALE ? pseudoLocalized(englishMessages) : englishMessages)],
]);

/** `language`'s catalog, loaded once (English: all of it, as `allEnglish` loads it). */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en') return allEnglish();
  if (loaded.has(language)) return;
  const load = loaders[language];
  if (!load) throw new Error(`no catalog for ${language}`);
  const { messages } = await load();
  loaded.set(language, instance(language, messages));
}

let englishRest: Promise<void> | undefined;
/**
 * The rest of English, beyond the start's words (FIRST_WORDS, i18n/catalogs.ts): loaded with the code of any page
 * but the landing page (app/routes.tsx), and before rendering a page on the server. Once.
 */
export function allEnglish(): Promise<void> {
  englishRest ??= import('virtual:messages/en-rest').then(({ messages }) => {
    (loaded.get('en') as I18n).load(LOCALES.en, PSEUDO_LOCALE ? pseudoLocalized(messages) : messages);
  });
  return englishRest;
}

const i18nOf = (language: Language) => loaded.get(language) ?? (loaded.get('en') as I18n);

/** Days and amounts in the page's language (a day is a local Date, as the calendar makes them). */
export interface Formats {
  /** "$80", "$99.50" (en-US); "80 US$" (es) */
  price(dollars: number): string;
  /** An amount paid or refunded: "$150.00" */
  amount(dollars: number): string;
  /** A moment of the device's clock: "Nov 21, 2026, 3:00 PM" */
  moment(instant: number | Date): string;
  /** A day of the calendar ("2026-12-03", no time zone of its own): "Dec 3, 2026", "3 dic 2026". */
  calendarDay(isoDate: string): string;
  /** A visit's day: in English the API's own words, "Dec 3, 2026" (the spec's); else "3 dic 2026". */
  visitDay(visit: { date: string; appointmentDate: string }): string;
  /**
   * A visit's times: in English the API's label, "10.00 AM - 10.30 AM" (the spec's); else the language's own,
   * "10:00 - 10:30", on the clinic's clock.
   */
  visitTime(visit: { slot: string; startsAt: string; durationMinutes: number }): string;
  /** "Thursday, Dec 3, 2026" */
  fullDay(day: Date): string;
  /** "Dec 3, 2026" */
  day(day: Date): string;
  /** "December 2026" */
  month(day: Date): string;
  /** "Thu" */
  weekday(day: Date): string;
  /** "Th", a calendar's column: the language's short weekday, as react-day-picker's default is. */
  weekdayNarrow(day: Date): string;
  /** "Sunday, November 1, 2026" */
  longDay(day: Date): string;
  /** "Dec" */
  monthShort(day: Date): string;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return (day: Date | number) => format.format(day);
};

export function formatsOf(language: Language): Formats {
  const locale = LOCALES[language];
  const calendarDay = dateFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
  const clock = dateFormat(locale, { timeZone: CLINIC_TIME_ZONE, hour: 'numeric', minute: '2-digit' });
  const weekday = dateFormat(locale, { weekday: 'short' });
  return {
    price: (dollars) => formatPrice(dollars, locale),
    amount: (dollars) => formatPrice(dollars, locale, true),
    moment: dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    calendarDay: (isoDate) => calendarDay(new Date(`${isoDate}T00:00:00Z`)),
    visitDay: (visit) => (language === 'en' ? visit.appointmentDate : calendarDay(new Date(`${visit.date}T00:00:00Z`))),
    visitTime: ({ slot, startsAt, durationMinutes }) => {
      const start = Date.parse(startsAt);
      if (language === 'en' || Number.isNaN(start)) return slot;
      // (A copy saved by an older version has no length: its start alone.)
      return durationMinutes > 0 ? `${clock(start)} - ${clock(start + durationMinutes * 60_000)}` : clock(start);
    },
    fullDay: dateFormat(locale, { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric' }),
    day: dateFormat(locale, { month: 'short', day: 'numeric', year: 'numeric' }),
    month: dateFormat(locale, { month: 'long', year: 'numeric' }),
    weekday,
    weekdayNarrow: (day) => weekday(day).slice(0, 2),
    longDay: dateFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }),
    monthShort: dateFormat(locale, { month: 'short' }),
  };
}

type LanguageState = {
  language: Language;
  locale: string;
  t: Translate;
  format: Formats;
  choose(language: Language): Promise<void>;
};

const translator =
  (i18n: I18n): Translate =>
  (key, values) =>
    i18n._(key, values);

/** English words, outside React (and in tests of functions that take a `Translate`). */
export const english: Translate = translator(i18nOf('en'));

const LanguageContext = createContext<LanguageState>({
  language: 'en',
  locale: LOCALES.en,
  t: english,
  format: formatsOf('en'),
  choose: async () => undefined, // no provider: English only
});

/** The page's language, its words (`t('hero.title')`) and its formats. */
export const useLanguage = () => useContext(LanguageContext);
export const useT = () => useContext(LanguageContext).t;
export const useFormat = () => useContext(LanguageContext).format;

const STORAGE_KEY = 'clinic.language';

/**
 * The language this device shows the app in: the one chosen on it, else the one the page was served in (the
 * Worker's pick from the browser's Accept-Language, or the cookie), else the browser's own.
 */
export function deviceLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage off: the page's language decides
  }
  const page = document.documentElement.lang;
  if (isLanguage(page)) return page;
  return pickLanguage(navigator.languages.join(','));
}

/** Keeps `language` on this device: for the app, the Worker (a cookie) and the service worker (a cache). */
function remember(language: Language) {
  document.documentElement.lang = language;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // storage off: the cookie still keeps it
  }
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie; the Cookie Store API is not in every browser.
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
  if ('caches' in globalThis)
    void caches
      .open(LANGUAGE_CACHE.name)
      .then((cache) => cache.put(LANGUAGE_CACHE.key, new Response(language)))
      .catch(() => undefined); // no cache storage: the cookie and the stored choice still keep it
}

/** The words of the page on screen, for code outside components (a toast of the session's). */
let onScreen: Translate = english;
export const wordsOnScreen = (): Translate => onScreen;

/** The app's language, `initial` until the reader chooses another (which is kept on the device). */
export function LanguageProvider({ initial, children }: { initial: Language; children: ReactNode }) {
  const [language, setLanguage] = useState(initial);
  // In the browser only: the Worker renders pages in several languages at once.
  useEffect(() => {
    onScreen = translator(i18nOf(language));
  }, [language]);
  const choose = useCallback(async (next: Language) => {
    await loadLanguage(next);
    remember(next);
    setLanguage(next);
  }, []);
  const value = useMemo(
    () => ({
      language,
      locale: LOCALES[language],
      t: translator(i18nOf(language)),
      format: formatsOf(language),
      choose,
    }),
    [language, choose],
  );
  return <LanguageContext value={value}>{children}</LanguageContext>;
}
