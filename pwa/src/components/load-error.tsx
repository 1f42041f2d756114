import type { ReactNode } from 'react';

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
  return (
    <div className="load-error" role="alert">
      <p>{children}</p>
      <button type="button" className="button button--small" onClick={onRetry} disabled={retrying}>
        Try again
      </button>
    </div>
  );
}
