import { useMemo } from 'react';
import { Router } from 'wouter';
import type { Language } from '../../../contract/languages.ts';
import { type FirstAnswers, firstAnswersFallback, servedAnswersFirst } from '../lib/first-answers.ts';
import { LanguageProvider } from '../lib/i18n.tsx';
import type { SessionUser } from '../lib/session.tsx';
import { RenderedForVisit } from '../lib/use-hydrated.ts';
import { AppProvider } from './provider.tsx';
import { AppRoutes } from './routes.tsx';

/**
 * `ssrPath` is set only where the page is rendered to HTML (the build's prerender, the Worker); in the browser the
 * router reads the URL. `fromSavedSession`: the first render may know who is signed in from this device (not when
 * hydrating the prerendered landing page). `firstAnswers`: the API answers the page shows first, which the Worker
 * rendered it with (lib/first-answers.ts); `renderedFor`: on the Worker, the patient they are for. `language`: the
 * page's, its catalog loaded (lib/i18n.tsx).
 */
export function App({
  ssrPath,
  fromSavedSession,
  firstAnswers,
  renderedFor,
  language = 'en',
}: {
  language?: Language;
  ssrPath?: string;
  fromSavedSession?: boolean;
  firstAnswers?: FirstAnswers | null;
  renderedFor?: SessionUser;
}) {
  const swr = useMemo(() => {
    if (!firstAnswers) return undefined;
    const fallback = firstAnswersFallback(firstAnswers);
    return { fallback, use: [servedAnswersFirst(new Set(Object.keys(fallback)))] };
  }, [firstAnswers]);
  return (
    <LanguageProvider initial={language}>
      <AppProvider fromSavedSession={fromSavedSession} renderedFor={renderedFor} swr={swr}>
        <RenderedForVisit value={Boolean(firstAnswers)}>
          <Router ssrPath={ssrPath}>
            <AppRoutes />
          </Router>
        </RenderedForVisit>
      </AppProvider>
    </LanguageProvider>
  );
}
