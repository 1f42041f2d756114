/**
 * What a message says in its reader's language (issue 48): the catalogs' ICU messages through Lingui,
 * compiled once per language on first use, and times and amounts through Intl in that language, on
 * the clinic's clock.
 */
import { type I18n, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { isLanguage, type Language, LOCALES } from '../../../contract/languages.ts';
import { en, type MessageKey } from './catalog/en.ts';
import { es } from './catalog/es.ts';
import { fr } from './catalog/fr.ts';
import type { Env } from './env.ts';

export type { MessageKey };
export const CATALOGS: Record<Language, Record<MessageKey, string>> = { en, es, fr };

const compiled = new Map<Language, I18n>();
function i18nOf(language: Language): I18n {
  let i18n = compiled.get(language);
  if (!i18n) {
    const messages = Object.fromEntries(
      Object.entries(CATALOGS[language]).map(([key, message]) => [key, compileMessage(message)]),
    );
    i18n = setupI18n({ locale: LOCALES[language], messages: { [LOCALES[language]]: messages } });
    compiled.set(language, i18n);
  }
  return i18n;
}

/** A stored language, or English for anything else (a row from before languages, a language since removed). */
export const languageOf = (value: unknown): Language => (isLanguage(value) ? value : 'en');

export interface Words {
  language: Language;
  /** The catalog's message `key` with its placeholders filled. */
  t(key: MessageKey, values?: Record<string, string | number>): string;
  /** e.g. "Tuesday, December 1, 2026 at 9:00 AM Eastern Standard Time", on the clinic's clock. */
  when(instant: Date): string;
  /** e.g. "Dec 1 at 9:00 AM", for subjects and texts. */
  shortWhen(instant: Date): string;
  /** A clinic day ("2026-12-01") as a date: "Dec 1, 2026". */
  day(isoDate: string): string;
  /** A clinic day in full: "December 1, 2026". */
  longDay(isoDate: string): string;
  /** The month of a clinic day: "December 2026". */
  month(isoDate: string): string;
  /** A time of the clinic's clock: "9:00 AM". */
  time(instant: Date): string;
  /** "$150.00" */
  money(cents: number, currency?: string): string;
}

/** The words of `language` on `env`'s clinic clock. */
export function wordsFor(env: Env, language: Language): Words {
  const locale = LOCALES[language];
  const i18n = i18nOf(language);
  const timeZone = env.CLINIC_TIME_ZONE;
  const format = (options: Intl.DateTimeFormatOptions) => (instant: Date) =>
    new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(instant).replace(/\s/g, ' ');
  const time = format({ hour: 'numeric', minute: '2-digit' });
  const t = (key: MessageKey, values?: Record<string, string | number>) => i18n._(key, values);
  return {
    language,
    t,
    when: format({
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'long',
    }),
    shortWhen: (instant) =>
      t('when.short', { date: format({ month: 'short', day: 'numeric' })(instant), time: time(instant) }),
    day: calendarDay(locale, { month: 'short', day: 'numeric', year: 'numeric' }),
    longDay: calendarDay(locale, { month: 'long', day: 'numeric', year: 'numeric' }),
    month: calendarDay(locale, { month: 'long', year: 'numeric' }),
    time,
    money: (cents, currency) => formatMoney(locale, cents, currency),
  };
}

/** A day of the calendar ("2026-12-01", no time zone of its own) in `locale`. */
const calendarDay = (locale: string, options: Intl.DateTimeFormatOptions) => (isoDate: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options }).format(new Date(`${isoDate}T00:00:00Z`));

/** An amount in `locale`: "$150.00" (en-US), "150,00 US$" (es). */
export const formatMoney = (locale: string, cents: number, currency = 'usd') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
