import { useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';
import { useHydrated } from '../../../lib/use-hydrated.ts';

/** 'CONTINUE WITH GOOGLE': a popup sign-in; new and returning users alike end up stored and with a token. */
export function GoogleSignInButton({ onSignedIn, onError }: { onSignedIn(): void; onError(error: unknown): void }) {
  const { signInWithGoogle } = useSession();
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();
  const t = useT();

  async function handleClick() {
    setBusy(true);
    try {
      await signInWithGoogle();
      onSignedIn();
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="button button--block" onClick={handleClick} disabled={busy || !ready}>
      {t('auth.google')}
    </button>
  );
}
