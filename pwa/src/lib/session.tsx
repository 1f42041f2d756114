import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { exchangeIdToken, forgetAccessToken, onAccessTokenRenewal, revokeAccessTokens } from './access-token.ts';
import { client } from './client.ts';
import type { AuthUser } from './firebase.ts';
import { ApiError } from './http.ts';
import { wordsOnScreen } from './i18n.tsx';
import { notify } from './notify.ts';
import { clearPerUserData } from './per-user-data.ts';
import { readAccessToken, storedAccessClaims, unexpiredAccessClaims } from './stored-access-token.ts';

/** docs/product-visitors.md#session-state: the signed-in user as the identity provider describes them. */
export type SessionUser = {
  uid: string;
  email: string | null;
  /** Until it is, the Worker refuses booking and reviews, and a banner asks the user to verify. */
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
};

export type Session = {
  user: SessionUser | null;
  /** docs/product-visitors.md#session-state: true at start and while an auth action runs; false once the auth state is known. */
  loading: boolean;
  /** Loads Firebase (once) and resolves when it has told who is signed in. */
  ensureAuth(): Promise<void>;
  /**
   * For the guards (docs/product.md#guards): resolves when who is signed in is known, from this device's saved
   * session when it tells (see savedSessionUser), else from Firebase (ensureAuth).
   */
  restoreSession(): Promise<void>;
  /** `returnTo`: the page the verification mail's link leads back to (a chosen time's booking page); null: none. */
  signUp(name: string, email: string, password: string, returnTo?: string | null): Promise<void>;
  signIn(email: string, password: string): Promise<void>;
  signInWithGoogle(): Promise<void>;
  /**
   * Mails a link that signs in without a password (a new patient's account is made with `name` when they open
   * it); it leads back to the login page, which finishes and goes on to `returnTo`.
   */
  sendSignInLink(email: string, name: string | null, returnTo: string): Promise<void>;
  /**
   * Where a sign-in link landed (`href`): signs in with the address it was mailed to (remembered on this
   * device, or `email` when opened on another). 'not-a-link' when `href` is none; 'needs-email' when the
   * address is not known here.
   */
  finishLinkSignIn(href: string, email?: string): Promise<'signed-in' | 'needs-email' | 'not-a-link'>;
  resetPassword(email: string): Promise<void>;
  /** Mails the signed-in user a new verification link. */
  resendVerification(): Promise<void>;
  /**
   * The user says they opened the verification link: reloads them from Firebase and, when verified,
   * trades a fresh ID token for an access token that the Worker knows as verified. Answers whether they are.
   */
  confirmVerified(): Promise<boolean>;
  /**
   * Ends the user's access tokens on the server (best effort; not with `everywhere: false`, which
   * signs out this device only: the front desk's tablet locking after kiosk mode), clears the
   * access token and every per-user cache, then signs out of Firebase. The caller goes to '/'.
   */
  signOut(options?: { everywhere?: boolean }): Promise<void>;
};

/**
 * A copy of the signed-in user in localStorage, so pages that do not load Firebase (the landing page)
 * can still show Dashboard and Sign Out. Alone never trusted for access: guards take it only beside an
 * unexpired access token of the same email (savedSessionUser), else wait for Firebase itself.
 */
export const SESSION_HINT_KEY = 'session';

function readHint(): SessionUser | null {
  try {
    const hint: unknown = JSON.parse(localStorage.getItem(SESSION_HINT_KEY) ?? 'null');
    if (hint && typeof hint === 'object') {
      const { uid, email, emailVerified, displayName, photoURL } = hint as Record<string, unknown>;
      const text = (value: unknown) => (typeof value === 'string' ? value : null);
      if (typeof uid === 'string' && uid) {
        // A hint from before emailVerified was kept says nothing either way: no banner until Firebase tells.
        const verified = typeof emailVerified === 'boolean' ? emailVerified : true;
        return {
          uid,
          email: text(email),
          emailVerified: verified,
          displayName: text(displayName),
          photoURL: text(photoURL),
        };
      }
    }
  } catch {
    // unreadable: treated as no hint
  }
  return null;
}

/** The email of the signed-in user as the session hint records it (for local bookkeeping, never for access). */
export function signedInEmailHint(): string | null {
  return readHint()?.email ?? null;
}

function writeHint(user: SessionUser | null) {
  if (user) localStorage.setItem(SESSION_HINT_KEY, JSON.stringify(user));
  else localStorage.removeItem(SESSION_HINT_KEY);
}

/**
 * Who is signed in as this device's saved session tells, without Firebase: the hint's user when the stored
 * access token is unexpired and names the same email (the Worker verifies that token on every call); null,
 * nobody, when neither a hint nor a token is kept; undefined when they disagree or the token has expired
 * (Firebase must tell, and renew the token).
 */
function savedSessionUser(): SessionUser | null | undefined {
  const hint = readHint();
  if (!hint && !readAccessToken()) return null;
  const claims = unexpiredAccessClaims();
  if (hint?.email && claims?.email.toLowerCase() === hint.email.toLowerCase()) return hint;
  return undefined;
}

const toSessionUser = ({ uid, email, emailVerified, displayName, photoURL }: AuthUser): SessionUser => ({
  uid,
  email,
  emailVerified,
  displayName,
  photoURL,
});

const loadFirebase = () => import('./firebase.ts');

/** The address (and a new patient's name) a sign-in link was mailed to from this device, until it is opened. */
const LINK_SIGN_IN_KEY = 'linkSignIn';
function readLinkSignIn(): { email: string; name: string | null } | null {
  try {
    const saved = JSON.parse(localStorage.getItem(LINK_SIGN_IN_KEY) ?? 'null') as unknown;
    if (typeof saved !== 'object' || saved === null) return null;
    const { email, name } = saved as Record<string, unknown>;
    return typeof email === 'string' ? { email, name: typeof name === 'string' ? name : null } : null;
  } catch {
    return null;
  }
}
type Firebase = Awaited<ReturnType<typeof loadFirebase>>;

/**
 * Runs the server's part of a sign-in (storing the user, trading the ID token). When the Worker refuses
 * the person (409: the email belongs to another account; 403: verify the email first) they leave
 * Firebase too, so nobody is left half signed in; an unverified person is sent a verification link first.
 */
async function unlessRefused(
  firebase: Firebase,
  user: AuthUser,
  serverPart: () => Promise<void>,
  { linkSent = false } = {},
) {
  try {
    await serverPart();
  } catch (cause) {
    if (cause instanceof ApiError && (cause.status === 403 || cause.status === 409)) {
      if (cause.status === 403 && !user.emailVerified && !linkSent)
        await firebase.sendVerificationEmail().catch(console.error);
      await firebase.signOutOfFirebase().catch(console.error);
    }
    throw cause;
  }
}

/** POST /api/users with the Firebase ID token: stores the user on the server (name, email). */
function saveUser(name: string, email: string, idToken: string) {
  return client('POST /users', { body: { name, email }, headers: { Authorization: `Bearer ${idToken}` } });
}

type AuthSubscription = { ready: Promise<void>; stop(): void };

const SessionContext = createContext<Session | null>(null);

type State = { user: SessionUser | null; loading: boolean };

/**
 * `fromSavedSession`: the first render may take who is signed in from this device's saved session (when it
 * tells), so a guarded page renders at once instead of after a progress bar. Not when hydrating the prerendered
 * landing page: its first client render must match the server's, where nobody is known yet.
 */
export function SessionProvider({
  children,
  fromSavedSession = false,
  renderedFor,
}: {
  children: ReactNode;
  fromSavedSession?: boolean;
  /** On the Worker only: the patient a page is rendered for with their data (entry-server.tsx). */
  renderedFor?: SessionUser;
}) {
  const [state, setState] = useState<State>(() => {
    if (renderedFor) return { user: renderedFor, loading: false };
    const saved = fromSavedSession ? savedSessionUser() : undefined;
    return saved === undefined ? { user: null, loading: true } : { user: saved, loading: false };
  });
  const { mutate } = useSWRConfig();
  const subscription = useRef<AuthSubscription | null>(null);
  const authKnown = useRef(false);

  const signedIn = useCallback((user: SessionUser) => {
    writeHint(user);
    setState({ user, loading: false });
  }, []);

  const ensureAuth = useCallback((): Promise<void> => {
    if (subscription.current) return subscription.current.ready;
    let stopped = false;
    let unsubscribe = () => {
      // Nothing to stop until Firebase has loaded.
    };
    const ready = new Promise<void>((resolve) => {
      loadFirebase().then(
        ({ watchAuthState }) => {
          if (stopped) return resolve();
          unsubscribe = watchAuthState(async (authUser) => {
            if (stopped) return;
            // Verified since this device's access token was made (the mail's link, opened here or elsewhere): the
            // API goes by that token, so it is renewed before the page offers what needs a verified address.
            const claims = storedAccessClaims();
            if (authUser?.email && authUser.emailVerified && claims?.email === authUser.email && !claims.verified) {
              try {
                await exchangeIdToken(authUser.email, await authUser.getIdToken(true));
              } catch (cause) {
                console.warn('The access token could not be renewed yet', cause);
              }
              if (stopped) return;
            }
            authKnown.current = true;
            const user = authUser ? toSessionUser(authUser) : null;
            writeHint(user);
            if (!user) forgetAccessToken();
            setState({ user, loading: false });
            resolve();
          });
        },
        (cause: unknown) => {
          // Firebase could not load (offline without a cached chunk): keep what the hint says.
          console.error(cause);
          subscription.current = null;
          setState((s) => ({ ...s, loading: false }));
          resolve();
        },
      );
    });
    subscription.current = {
      ready,
      stop() {
        stopped = true;
        unsubscribe();
      },
    };
    return ready;
  }, []);

  const restoreSession = useCallback((): Promise<void> => {
    // Firebase already asked (a sign-in on this visit, say): its answer is the one that counts.
    if (subscription.current) return subscription.current.ready;
    const saved = savedSessionUser();
    if (saved === undefined) return ensureAuth();
    setState((s) => (!s.loading && s.user?.uid === saved?.uid ? s : { user: saved, loading: false }));
    return Promise.resolve();
  }, [ensureAuth]);

  // A token the Worker refused is renewed through Firebase: from then on the session follows Firebase's
  // answer, so a session that ended there (nobody signed in) ends here too.
  useEffect(() => onAccessTokenRenewal(() => void ensureAuth()), [ensureAuth]);

  useEffect(() => {
    const hint = readHint();
    if (hint && !authKnown.current) setState((s) => (s.user ? s : { ...s, user: hint }));
    return () => {
      subscription.current?.stop();
      subscription.current = null;
    };
  }, []);

  /** Runs an auth action with loading set; on failure nothing else will clear the flag, so this does. */
  const withLoading = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    setState((s) => ({ ...s, loading: true }));
    try {
      return await action();
    } catch (error) {
      setState((s) => ({ ...s, loading: false }));
      throw error;
    }
  }, []);

  const signUp = useCallback(
    (name: string, email: string, password: string, returnTo: string | null = null) =>
      withLoading(async () => {
        void ensureAuth();
        const firebase = await loadFirebase();
        const user = await firebase.createAccount(email, password);
        // The spec's words, and what they mean.
        const t = wordsOnScreen();
        notify.success(t('signup.created'), t('signup.createdText'));
        await firebase.setDisplayName(name);
        // Booking and reviews wait for a verified email; if this mail fails, the banner's Resend sends another.
        let linkSent = true;
        await firebase.sendVerificationEmail(returnTo).catch((cause: unknown) => {
          console.error(cause);
          linkSent = false;
        });
        const address = user.email ?? email;
        await unlessRefused(
          firebase,
          user,
          async () => {
            const idToken = await user.getIdToken();
            await saveUser(name, address, idToken);
            await exchangeIdToken(address, idToken);
          },
          { linkSent },
        );
        signedIn({ ...toSessionUser(user), displayName: name });
      }),
    [ensureAuth, signedIn, withLoading],
  );

  const signIn = useCallback(
    (email: string, password: string) =>
      withLoading(async () => {
        void ensureAuth();
        const firebase = await loadFirebase();
        const user = await firebase.signInWithPassword(email, password);
        await unlessRefused(firebase, user, async () => {
          await exchangeIdToken(user.email ?? email, await user.getIdToken());
        });
        signedIn(toSessionUser(user));
      }),
    [ensureAuth, signedIn, withLoading],
  );

  const signInWithGoogle = useCallback(
    () =>
      withLoading(async () => {
        void ensureAuth();
        const firebase = await loadFirebase();
        const user = await firebase.signInWithGoogle();
        if (!user.email) throw new Error('This Google account has no email address');
        const address = user.email;
        await unlessRefused(firebase, user, async () => {
          const idToken = await user.getIdToken();
          // New and returning users alike: the server keeps one user per Firebase account.
          await saveUser(user.displayName || (address.split('@')[0] ?? address), address, idToken);
          await exchangeIdToken(address, idToken);
        });
        signedIn(toSessionUser(user));
      }),
    [ensureAuth, signedIn, withLoading],
  );

  const sendSignInLink = useCallback(
    async (email: string, name: string | null, returnTo: string) => {
      void ensureAuth();
      const firebase = await loadFirebase();
      await firebase.sendSignInLink(email, `/login?from=${encodeURIComponent(returnTo)}`);
      localStorage.setItem(LINK_SIGN_IN_KEY, JSON.stringify({ email: email.trim().toLowerCase(), name }));
    },
    [ensureAuth],
  );

  const finishLinkSignIn = useCallback(
    async (href: string, email?: string) => {
      void ensureAuth();
      const firebase = await loadFirebase();
      if (!firebase.isSignInLink(href)) return 'not-a-link' as const;
      const asked = readLinkSignIn();
      const address = email?.trim().toLowerCase() || asked?.email;
      if (!address) return 'needs-email' as const;
      await withLoading(async () => {
        const user = await firebase.signInWithLink(address, href);
        localStorage.removeItem(LINK_SIGN_IN_KEY);
        const name = user.displayName || asked?.name || (address.split('@')[0] ?? address);
        if (!user.displayName) await firebase.setDisplayName(name);
        await unlessRefused(firebase, user, async () => {
          const idToken = await user.getIdToken();
          // New and returning users alike: the server keeps one user per Firebase account.
          await saveUser(name, address, idToken);
          await exchangeIdToken(address, idToken);
        });
        signedIn({ ...toSessionUser(user), displayName: name });
      });
      return 'signed-in' as const;
    },
    [ensureAuth, signedIn, withLoading],
  );

  const resetPassword = useCallback(
    (email: string) =>
      withLoading(async () => {
        const firebase = await loadFirebase();
        await firebase.sendPasswordReset(email);
        setState((s) => ({ ...s, loading: false }));
      }),
    [withLoading],
  );

  const resendVerification = useCallback(async () => {
    await ensureAuth();
    const firebase = await loadFirebase();
    // The new link leads back here, wherever the patient asked for it from (say, a booking with its time chosen).
    const here = `${window.location.pathname}${window.location.search}`;
    await firebase.sendVerificationEmail(here === '/' ? null : here);
  }, [ensureAuth]);

  const confirmVerified = useCallback(async () => {
    await ensureAuth();
    const firebase = await loadFirebase();
    const user = await firebase.reloadUser();
    if (!user?.email || !user.emailVerified) return false;
    await exchangeIdToken(user.email, await user.getIdToken(true));
    signedIn(toSessionUser(user));
    // What the server says of this user may have changed with it (an ADMIN_EMAILS address is now admin).
    void mutate(() => true);
    return true;
  }, [ensureAuth, mutate, signedIn]);

  const signOut = useCallback(
    async ({ everywhere = true }: { everywhere?: boolean } = {}) => {
      // The hint follows every change of the signed-in user, so it names the one signing out.
      const email = signedInEmailHint();
      if (everywhere) await revokeAccessTokens();
      // Out of Firebase at once, beside clearing what was theirs (not after it): a page opened meanwhile would
      // find Firebase's saved session and sign the person in again. The page drops the user now, in the same
      // task (the kiosk's hand-over counts on it).
      const leaving = loadFirebase()
        .then((firebase) => firebase.signOutOfFirebase())
        .catch(console.error);
      setState({ user: null, loading: true });
      forgetAccessToken();
      writeHint(null);
      try {
        await mutate(() => true, undefined, { revalidate: false });
        await clearPerUserData({ email });
        await leaving;
      } finally {
        setState({ user: null, loading: false });
      }
    },
    [mutate],
  );

  const session = useMemo<Session>(
    () => ({
      ...state,
      ensureAuth,
      restoreSession,
      signUp,
      signIn,
      signInWithGoogle,
      resetPassword,
      resendVerification,
      confirmVerified,
      signOut,
      sendSignInLink,
      finishLinkSignIn,
    }),
    [
      sendSignInLink,
      finishLinkSignIn,
      state,
      ensureAuth,
      restoreSession,
      signUp,
      signIn,
      signInWithGoogle,
      resetPassword,
      resendVerification,
      confirmVerified,
      signOut,
    ],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
