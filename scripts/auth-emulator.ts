/**
 * Admin calls to the local Firebase Auth emulator (the `Bearer owner` token is the emulator's admin
 * credential): creating accounts with a fixed uid, finding them, marking their email verified.
 * Used by the local stack's seed and the browser tests.
 */
export const AUTH_HOST = '127.0.0.1';
export const AUTH_PORT = 9099;
export const FIREBASE_PROJECT_ID = 'demo-clinic';

const ADMIN_API = `http://${AUTH_HOST}:${AUTH_PORT}/identitytoolkit.googleapis.com/v1/projects/${FIREBASE_PROJECT_ID}`;

export interface EmulatorAccount {
  localId: string;
  email: string;
  emailVerified?: boolean;
}

async function admin<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${ADMIN_API}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer owner' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`auth emulator ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Creates an email/password account; `localId` fixes its uid, `emailVerified` skips the verification mail. */
export async function createEmulatorAccount(account: {
  email: string;
  password: string;
  displayName: string;
  emailVerified?: boolean;
  localId?: string;
}): Promise<EmulatorAccount> {
  return admin<EmulatorAccount>('/accounts', account);
}

export async function findEmulatorAccount(email: string): Promise<EmulatorAccount | undefined> {
  const { users } = await admin<{ users?: EmulatorAccount[] }>('/accounts:lookup', { email: [email] });
  return users?.[0];
}

/** Marks an account's email verified, as opening the verification link would. */
export async function markEmailVerified(email: string): Promise<EmulatorAccount> {
  const account = await findEmulatorAccount(email);
  if (!account) throw new Error(`no account ${email} in the auth emulator`);
  if (!account.emailVerified) await admin('/accounts:update', { localId: account.localId, emailVerified: true });
  return { ...account, emailVerified: true };
}

export interface OobCode {
  email: string;
  oobLink: string;
  requestType: 'VERIFY_EMAIL' | 'PASSWORD_RESET' | string;
}

/** The out-of-band links (verification and password-reset mails) the emulator would have sent. */
export async function oobCodes(): Promise<OobCode[]> {
  const response = await fetch(`http://${AUTH_HOST}:${AUTH_PORT}/emulator/v1/projects/${FIREBASE_PROJECT_ID}/oobCodes`);
  return ((await response.json()) as { oobCodes: OobCode[] }).oobCodes;
}
