import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { ACCESS_TOKEN_KEY } from './api.ts';

export type SessionUser = {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
};

export type Session = {
  user: SessionUser | null;
  loading: boolean;
  signOut(): Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

async function signOut(): Promise<void> {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
}

/** The signed-in user. For now always signed out; the identity provider plugs in here. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const session = useMemo<Session>(() => ({ user: null, loading: false, signOut }), []);
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
