/**
 * The app's catalogs (src/i18n/), compiled at build time (issue 48): `import { messages } from
 * 'virtual:messages/es'` is the Spanish catalog with every ICU message already parsed by Lingui, so the
 * browser loads no message parser; `import { loaders } from 'virtual:messages'` loads any language's, each
 * a chunk of its own (src/lib/i18n.tsx). The build, the tests and the dev server compile them the same way.
 */
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';
import { LANGUAGES, type Language } from '../../contract/languages.ts';
import { CATALOGS } from '../src/i18n/catalogs.ts';

const INDEX = 'virtual:messages';
const PREFIX = `${INDEX}/`;
const RESOLVED = '\0messages:';

export function compiledCatalogs(): Plugin {
  return {
    name: 'clinic:compiled-catalogs',
    resolveId(id) {
      if (id === INDEX) return RESOLVED;
      if (!id.startsWith(PREFIX)) return null;
      const language = id.slice(PREFIX.length);
      if (!(LANGUAGES as readonly string[]).includes(language)) throw new Error(`no catalog for "${language}"`);
      return RESOLVED + language;
    },
    load(id) {
      if (id === RESOLVED)
        return `export const loaders = {${LANGUAGES.map((l) => `${l}: () => import('${PREFIX}${l}')`).join(', ')}};`;
      if (!id.startsWith(RESOLVED)) return null;
      const catalog = CATALOGS[id.slice(RESOLVED.length) as Language];
      const compiled = Object.fromEntries(Object.entries(catalog).map(([key, text]) => [key, compileMessage(text)]));
      return `export const messages = ${JSON.stringify(compiled)};`;
    },
  };
}
