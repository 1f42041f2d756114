import { isLanguage, LANGUAGE_COOKIE, type Language, pickLanguage } from '../../../contract/languages.ts';

/**
 * The language a page is served in (docs/languages.md): the one chosen on the device (its cookie, set by the
 * app's language switcher), else the best of the browser's `Accept-Language`.
 */
export function pageLanguage(request: Request): Language {
  const prefix = `${LANGUAGE_COOKIE}=`;
  const chosen = request.headers
    .get('Cookie')
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  return isLanguage(chosen) ? chosen : pickLanguage(request.headers.get('Accept-Language'));
}
