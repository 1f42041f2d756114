import { parse, type Token } from '@messageformat/parser';

/**
 * The argument names an ICU message uses (`{name}`, `{count, plural, …}`), found by the ICU parser: a
 * translation must use the English message's (worker/test/languages.test.ts, scripts/pwa-catalogs.test.ts).
 * Throws on a message that does not parse.
 */
export function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'select') {
        names.add(token.arg);
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return [...names].sort();
}
