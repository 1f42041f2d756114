// An in-memory stand-in for src/lib/firebase.ts (the app's only door to Firebase), mocked for every
// test in setup.ts. Accounts, the signed-in user and the auth-state notifications behave like the
// real SDK's; each export is a vi.fn, so a test can inspect calls or make one fail.
import { vi } from 'vitest';
import type * as Real from '../lib/firebase.ts';
import type { AuthUser } from '../lib/firebase.ts';

type Account = { uid: string; email: string; password: string; displayName: string | null; emailVerified: boolean };

const firebaseError = (code: string) => new Error(`Firebase: Error (auth/${code}).`);

const state = {
  accounts: new Map<string, Account>(),
  current: null as AuthUser | null,
  listeners: new Set<(user: AuthUser | null) => void>(),
  /** While set, the first auth-state notification is held back (Firebase still reading its storage). */
  pending: null as Promise<void> | null,
  /** The Google account the next popup sign-in returns. */
  googleAccount: { email: 'gina.google@example.com', displayName: 'Gina Google' } as {
    email: string;
    displayName: string | null;
  },
  nextUid: 1,
  tokenSerial: 0,
  /** Verification mails sent, by address (the emulator's oobCodes). */
  verificationMails: [] as string[],
  /** Sign-in links sent: to whom, and the page each opens. */
  signInLinks: [] as { email: string; landing: string }[],
};

function toUser(account: Account): AuthUser {
  return {
    uid: account.uid,
    email: account.email,
    emailVerified: account.emailVerified,
    displayName: account.displayName,
    photoURL: null,
    getIdToken: vi.fn(async (forceRefresh?: boolean) => {
      if (forceRefresh) state.tokenSerial += 1;
      return `id-token:${account.email}:${state.tokenSerial}`;
    }),
  };
}

function setCurrent(user: AuthUser | null) {
  state.current = user;
  for (const listener of state.listeners) listener(user);
}

function account(email: string, password: string, displayName: string | null = null, emailVerified = true): Account {
  const found = state.accounts.get(email.toLowerCase());
  if (found) return found;
  const created = { uid: `uid-${state.nextUid++}`, email: email.toLowerCase(), password, displayName, emailVerified };
  state.accounts.set(created.email, created);
  return created;
}

export const fakeFirebase = {
  /** Adds an account that can sign in with email and password (its email verified unless told). */
  addAccount(email: string, password: string, displayName: string | null = null, { verified = true } = {}) {
    return account(email, password, displayName, verified);
  },
  /** Starts a test already signed in (as Firebase would after reading its storage). */
  signInAs(email: string, displayName: string | null = null, { verified = true } = {}): AuthUser {
    const user = toUser(account(email, 'Secret#123', displayName, verified));
    state.current = user;
    return user;
  },
  /** The account's owner opens the verification link (the signed-in user object sees it after a reload). */
  verifyEmail(email: string) {
    state.accounts.get(email.toLowerCase())!.emailVerified = true;
  },
  get verificationMails() {
    return state.verificationMails;
  },
  /** The sign-in links mailed: to whom, and the page each opens. */
  get signInLinks() {
    return state.signInLinks;
  },
  /** Holds the first auth-state notification until the returned function is called. */
  holdAuthState(): () => void {
    let release = () => {};
    state.pending = new Promise<void>((resolve) => (release = resolve));
    return release;
  },
  setGoogleAccount(email: string, displayName: string | null) {
    state.googleAccount = { email, displayName };
  },
  get currentUser() {
    return state.current;
  },
  get accounts() {
    return state.accounts;
  },
  /** Back to no accounts, nobody signed in, and fresh call records; setup.ts runs it after each test. */
  reset() {
    for (const fake of fakes) fake.mockReset();
    state.accounts.clear();
    state.current = null;
    state.listeners.clear();
    state.pending = null;
    state.googleAccount = { email: 'gina.google@example.com', displayName: 'Gina Google' };
    state.nextUid = 1;
    state.tokenSerial = 0;
    state.verificationMails = [];
    state.signInLinks = [];
  },
};

export const firebaseConfig = { apiKey: 'demo-api-key', authDomain: 'demo-clinic.test', projectId: 'demo-clinic' };

export const watchAuthState = vi.fn<typeof Real.watchAuthState>((listener) => {
  state.listeners.add(listener);
  void (state.pending ?? Promise.resolve()).then(() => {
    if (state.listeners.has(listener)) listener(state.current);
  });
  return () => state.listeners.delete(listener);
});

export const currentUser = vi.fn<typeof Real.currentUser>(async () => {
  await state.pending;
  return state.current;
});

export const createAccount = vi.fn<typeof Real.createAccount>(async (email, password) => {
  if (state.accounts.has(email.toLowerCase())) throw firebaseError('email-already-in-use');
  const user = toUser(account(email, password, null, false));
  setCurrent(user);
  return user;
});

export const signInWithPassword = vi.fn<typeof Real.signInWithPassword>(async (email, password) => {
  const found = state.accounts.get(email.toLowerCase());
  if (!found || found.password !== password) throw firebaseError('invalid-credential');
  const user = toUser(found);
  setCurrent(user);
  return user;
});

export const signInWithGoogle = vi.fn<typeof Real.signInWithGoogle>(async () => {
  const { email, displayName } = state.googleAccount;
  const user = toUser(account(email, '', displayName));
  setCurrent(user);
  return user;
});

export const sendSignInLink = vi.fn<typeof Real.sendSignInLink>(async (email, landing) => {
  state.signInLinks.push({ email: email.toLowerCase(), landing });
});

export const isSignInLink = vi.fn<typeof Real.isSignInLink>(
  (href) => new URL(href).searchParams.get('mode') === 'signIn',
);

export const signInWithLink = vi.fn<typeof Real.signInWithLink>(async (email) => {
  const address = email.toLowerCase();
  if (!state.signInLinks.some((link) => link.email === address)) throw firebaseError('invalid-action-code');
  const found = state.accounts.get(address) ?? account(address, '', null, true);
  found.emailVerified = true;
  const user = toUser(found);
  setCurrent(user);
  return user;
});

export const setDisplayName = vi.fn<typeof Real.setDisplayName>(async (displayName) => {
  const current = state.current;
  if (!current?.email) throw new Error('Sign in before changing your name');
  const found = state.accounts.get(current.email)!;
  found.displayName = displayName;
  state.current = toUser(found);
});

export const sendPasswordReset = vi.fn<typeof Real.sendPasswordReset>(async (email) => {
  if (!state.accounts.has(email.toLowerCase())) throw firebaseError('user-not-found');
});

export const signOutOfFirebase = vi.fn<typeof Real.signOutOfFirebase>(async () => {
  setCurrent(null);
});

export const sendVerificationEmail = vi.fn<typeof Real.sendVerificationEmail>(async () => {
  if (!state.current?.email) throw new Error('Sign in before asking for a verification email');
  state.verificationMails.push(state.current.email);
});

export const reloadUser = vi.fn<typeof Real.reloadUser>(async () => {
  await state.pending;
  if (!state.current?.email) return null;
  state.current = toUser(state.accounts.get(state.current.email)!);
  return state.current;
});

const fakes = [
  watchAuthState,
  currentUser,
  createAccount,
  signInWithPassword,
  signInWithGoogle,
  setDisplayName,
  sendPasswordReset,
  signOutOfFirebase,
  sendVerificationEmail,
  reloadUser,
  sendSignInLink,
  isSignInLink,
  signInWithLink,
];
