import { type ReactNode, Suspense, useLayoutEffect } from 'react';
import { Spinner } from '../components/spinner.tsx';
import { useT } from '../lib/i18n.tsx';

/**
 * Once it commits, the page in #root takes taps and keys: the Worker and the build serve a page `inert` (and a
 * frame marked `data-frame`) until the app has taken it over. It is rendered with a page's content, inside the
 * page's Suspense boundary, not at the app's root: React hydrates a boundary's content after the rest of the page,
 * and a tap or a key there before that could be lost.
 */
export function TookOver() {
  useLayoutEffect(() => {
    const root = document.getElementById('root');
    root?.removeAttribute('inert');
    root?.removeAttribute('data-frame');
  }, []);
  return null;
}

/** What shows while a page's code loads: a spinner, on a page that takes input. */
export function PageLoading() {
  const t = useT();
  return (
    <>
      <TookOver />
      <Spinner label={t('common.loadingPage')} />
    </>
  );
}

/** A page's Suspense boundary (in the layouts): the page, or PageLoading while its code loads. */
export function PageBoundary({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <TookOver />
      {children}
    </Suspense>
  );
}
