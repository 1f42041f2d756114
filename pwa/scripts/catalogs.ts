/**
 * The app's catalogs (src/i18n/), compiled at build time (issue 48): `import { messages } from
 * 'virtual:messages/es'` is the Spanish catalog with every ICU message already parsed by Lingui, so the
 * browser loads no message parser; `import { loaders } from 'virtual:messages'` loads any language's, each
 * a chunk of its own (src/lib/i18n.tsx). The build, the tests and the dev server compile them the same way.
 */
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';
import { LANGUAGES, type Language } from '../../contract/languages.ts';
import { CATALOGS, FIRST_WORDS } from '../src/i18n/catalogs.ts';

const INDEX = 'virtual:messages';
const PREFIX = `${INDEX}/`;
const RESOLVED = '\0messages:';

/**
 * `split`: English comes in two parts, `virtual:messages/en` (FIRST_WORDS, for the app's start) and
 * `virtual:messages/en-rest` (the pages'), as the build ships them; without it (the unit tests, which render any
 * screen at once) the first part is all of English and the rest is empty.
 */
export function compiledCatalogs({ split }: { split: boolean }): Plugin {
  return {
    name: 'clinic:compiled-catalogs',
    resolveId(id) {
      if (id === INDEX) return RESOLVED;
      if (id === `${PREFIX}en-rest`) return `${RESOLVED}en-rest`;
      if (!id.startsWith(PREFIX)) return null;
      const language = id.slice(PREFIX.length);
      if (!(LANGUAGES as readonly string[]).includes(language)) throw new Error(`no catalog for "${language}"`);
      return RESOLVED + language;
    },
    load(id) {
      if (id === RESOLVED)
        return `export const loaders = {${LANGUAGES.map((l) => `${l}: () => import('${PREFIX}${l}')`).join(', ')}};`;
      if (!id.startsWith(RESOLVED)) return null;
      const name = id.slice(RESOLVED.length);
      const rest = name === 'en-rest';
      const language = (rest ? 'en' : name) as Language;
      const entries = Object.entries(CATALOGS[language]).filter(([key]) =>
        language !== 'en' || !split ? !rest : FIRST_WORDS.test(key) !== rest,
      );
      const compiled = Object.fromEntries(entries.map(([key, text]) => [key, compileMessage(text)]));
      return `export const messages = ${JSON.stringify(compiled)};`;
    },
  };
}
