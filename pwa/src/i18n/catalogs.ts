/**
 * The app's words in every language (docs/languages.md): `en.ts` is the source; the others are typed as
 * having every English key, so a missing one fails the type check. Read at build time only
 * (scripts/catalogs.ts compiles them); the app loads a language's compiled catalog (lib/i18n.tsx).
 */
import type { Language } from '../../../contract/languages.ts';
import { en, type MessageKey } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

export const CATALOGS: Record<Language, Record<MessageKey, string>> = { en, es, fr };

/**
 * The English words the app's start needs (its layouts, the landing page, the loading and error screens), in its
 * first file; the rest of English comes with the first page that needs it (lib/i18n.tsx, app/routes.tsx). A key
 * the start shows must match: its English would otherwise be missing until a page loads the rest.
 */
export const FIRST_WORDS =
  /^(common|language|nav|footer|hero|info|services|team|cta|testimonials|contact|field|menu|error|notFound|verify)\./;
