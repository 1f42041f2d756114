import type { ReactNode } from 'react';
import { useT } from '../lib/i18n.tsx';

/** A list that could not be loaded: what went wrong, and Try again. */
export function LoadError({
  children,
  onRetry,
  retrying,
}: {
  children: ReactNode;
  onRetry(): void;
  retrying: boolean;
}) {
  const t = useT();
  return (
    <div className="load-error" role="alert">
      <p>{children}</p>
      <button type="button" className="button button--small" onClick={onRetry} disabled={retrying}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}
