// The one place that knows Firebase: its configuration and every Auth call the app makes.
//
// Import this module only with `import('./firebase.ts')` (session.tsx and access-token.ts do): it pulls in the
// Firebase SDK, which must stay out of the landing page's first load. pwa/scripts/first-load.test.ts checks the build.
import { getApps, initializeApp } from 'firebase/app';
import {
  type Auth,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  browserSessionPersistence,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  getAuth,
  indexedDBLocalPersistence,
  initializeAuth,
  isSignInWithEmailLink,
  onAuthStateChanged,
  reload,
  sendEmailVerification,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInWithEmailAndPassword,
  signInWithEmailLink,
  signInWithPopup,
  signOut,
  type User,
  updateProfile,
} from 'firebase/auth';

const env = import.meta.env;

export const firebaseConfig = {
  apiKey: env.VITE_FIREBASE_API_KEY || 'demo-api-key',
  authDomain: env.VITE_FIREBASE_AUTH_DOMAIN || 'demo-clinic.firebaseapp.com',
  projectId: env.VITE_FIREBASE_PROJECT_ID || 'demo-clinic',
};

/** A `demo-` project exists only in the emulator, so it always uses it; a real project only when told to. */
function emulatorUrl(): string | null {
  const host = env.VITE_FIREBASE_AUTH_EMULATOR_HOST;
  if (host) return /^https?:\/\//.test(host) ? host : `http://${host}`;
  return firebaseConfig.projectId.startsWith('demo-') ? 'http://127.0.0.1:9099' : null;
}

/** What the app reads of a signed-in Firebase user. */
export type AuthUser = Pick<User, 'uid' | 'email' | 'emailVerified' | 'displayName' | 'photoURL' | 'getIdToken'>;

let auth: Auth | undefined;

function firebaseAuth(): Auth {
  if (auth) return auth;
  const existing = getApps()[0];
  if (existing) {
    auth = getAuth(existing); // a hot reload re-ran this module
    return auth;
  }
  const app = initializeApp(firebaseConfig);
  auth = initializeAuth(app, {
    // docs/product-visitors.md#session-state: indexed storage, then local storage, then session storage.
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  const emulator = emulatorUrl();
  if (emulator) connectAuthEmulator(auth, emulator, { disableWarnings: true });
  return auth;
}

/** Calls `listener` with the current user as soon as it is known, then on every sign-in and sign-out. */
export function watchAuthState(listener: (user: AuthUser | null) => void): () => void {
  return onAuthStateChanged(firebaseAuth(), listener);
}

/** The signed-in user once the persisted state has been read, or null. */
export async function currentUser(): Promise<AuthUser | null> {
  const a = firebaseAuth();
  await a.authStateReady();
  return a.currentUser;
}

export async function createAccount(email: string, password: string): Promise<AuthUser> {
  return (await createUserWithEmailAndPassword(firebaseAuth(), email, password)).user;
}

export async function signInWithPassword(email: string, password: string): Promise<AuthUser> {
  return (await signInWithEmailAndPassword(firebaseAuth(), email, password)).user;
}

/**
 * Mails `email` a link that signs them in without a password (and creates the account on first use); it
 * opens `landing` (a path on this site), where signInWithLink finishes.
 */
export async function sendSignInLink(email: string, landing: string): Promise<void> {
  await sendSignInLinkToEmail(firebaseAuth(), email, {
    url: new URL(landing, window.location.origin).href,
    handleCodeInApp: true,
  });
}

/** Whether `href` is where a sign-in link landed (its one-time code in the query). */
export function isSignInLink(href: string): boolean {
  return isSignInWithEmailLink(firebaseAuth(), href);
}

/** Signs in with the link that landed at `href`, mailed to `email`; the address is verified by opening it. */
export async function signInWithLink(email: string, href: string): Promise<AuthUser> {
  return (await signInWithEmailLink(firebaseAuth(), email, href)).user;
}

export async function signInWithGoogle(): Promise<AuthUser> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  return (await signInWithPopup(firebaseAuth(), provider)).user;
}

/** Sets the signed-in user's display name. */
export async function setDisplayName(displayName: string): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('Sign in before changing your name');
  await updateProfile(user, { displayName });
}

/**
 * Mails the signed-in user a link that verifies their email address; with `returnTo` (a path on this
 * site), the page after verifying leads back there.
 */
export async function sendVerificationEmail(returnTo: string | null = null): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('Sign in before asking for a verification email');
  await sendEmailVerification(user, returnTo ? { url: new URL(returnTo, window.location.origin).href } : null);
}

/** The signed-in user as Firebase knows them now (say, after they opened the verification link), or null. */
export async function reloadUser(): Promise<AuthUser | null> {
  const a = firebaseAuth();
  await a.authStateReady();
  if (!a.currentUser) return null;
  await reload(a.currentUser);
  return a.currentUser;
}

export async function sendPasswordReset(email: string): Promise<void> {
  await sendPasswordResetEmail(firebaseAuth(), email);
}

export async function signOutOfFirebase(): Promise<void> {
  await signOut(firebaseAuth());
}
