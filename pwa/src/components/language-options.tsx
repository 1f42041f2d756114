import { LANGUAGE_NAMES, LANGUAGES } from '../../../contract/languages.ts';

/** The options of a language chooser: each language by its own name, marked as in that language. */
export function LanguageOptions() {
  return LANGUAGES.map((language) => (
    <option key={language} value={language} lang={language}>
      {LANGUAGE_NAMES[language]}
    </option>
  ));
}
