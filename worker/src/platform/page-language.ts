import { isLanguage, LANGUAGE_COOKIE, type Language, pickLanguage } from '../../../contract/languages.ts';
import { cookieOf } from './http.ts';

/**
 * The language a page is served in (docs/languages.md): the one chosen on the device (its cookie, set by the
 * app's language switcher), else the best of the browser's `Accept-Language`.
 */
export function pageLanguage(request: Request): Language {
  const chosen = cookieOf(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : pickLanguage(request.headers.get('Accept-Language'));
}
