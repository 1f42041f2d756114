import { useId } from 'react';
import type { Language } from '../../../contract/languages.ts';
import { logUnexpected } from '../lib/error-text.ts';
import { useLanguage } from '../lib/i18n.tsx';
import { useSession } from '../lib/session.tsx';
import { useHydrated } from '../lib/use-hydrated.ts';
import { LanguageOptions } from './language-options.tsx';

/**
 * The language of the app on this device, in the navigation of every page (docs/languages.md): kept on the device
 * and, signed in, on the account, so the clinic's mails and texts follow it.
 */
export function LanguageSwitcher() {
  const { language, choose, t } = useLanguage();
  const { user } = useSession();
  const id = useId();
  // On the landing page it paints before its code has run: until then a choice would do nothing.
  const ready = useHydrated();

  async function onChange(next: Language) {
    await choose(next);
    if (!user) return;
    try {
      // Not with the landing page's code: the API's client loads with the first choice.
      const { client } = await import('../lib/client.ts');
      await client('PUT /users/me/language', { body: { language: next } });
    } catch (cause) {
      logUnexpected(cause); // the device keeps it; the account's (its mails and texts) stays as it was
    }
  }

  return (
    <span className="language-switcher">
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={language}
        disabled={!ready}
        onChange={(event) => void onChange(event.target.value as Language)}
      >
        <LanguageOptions />
      </select>
    </span>
  );
}
