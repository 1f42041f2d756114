/**
 * No schema here: the patient pages import these, and load no valibot (pwa/scripts). The API's
 * schema is `LanguageSetting` in contract/users.ts.
 *
 * The languages a patient can have their mails, texts and calendar files in (docs/languages.md).
 * Adding one is a catalog (worker/src/platform/catalog/) and a line here.
 */
export const LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language by its own name, as a chooser lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español', fr: 'Français' };

/** The Intl locale of each language: English as the clinic (in the US) has always written it. */
export const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es', fr: 'fr' };

/** The cookie that keeps a device's chosen language, so the Worker serves its pages in it (docs/languages.md). */
export const LANGUAGE_COOKIE = 'clinic_language';
/** Where the app keeps it for its service worker, which reads no cookie (pwa/src/sw/sw.ts). */
export const LANGUAGE_CACHE = { name: 'clinic-language', key: '/language' } as const;

export const isLanguage = (tag: unknown): tag is Language => (LANGUAGES as readonly unknown[]).includes(tag);

/**
 * The best of LANGUAGES for an `Accept-Language` header (RFC 9110: tags by quality, "es-MX" matching
 * "es"), or English when none matches.
 */
export function pickLanguage(acceptLanguage: string | null | undefined): Language {
  const asked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        primary: tag.trim().toLowerCase().split('-')[0] ?? '',
        quality: Number.isNaN(quality) ? 0 : quality,
        index,
      };
    })
    .filter((a) => a.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return asked.map((a) => a.primary).find(isLanguage) ?? 'en';
}
