import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryLocalD1 } from '../scripts/local-d1.ts';

/** Reads the test stack's local D1. */
export function queryD1<Row>(sql: string): Row[] {
  const stateDir = process.env.E2E_STATE_DIR;
  if (!stateDir) throw new Error('E2E_STATE_DIR is not set; run the browser tests through their config');
  return queryLocalD1<Row>(stateDir, sql);
}

/** The plain-text bodies of the mails the local send_email binding delivered in this run. */
export function deliveredMails(): string[] {
  const root = '.wrangler/tmp/email';
  const bodies: string[] = [];
  let sessions: string[] = [];
  try {
    sessions = readdirSync(root);
  } catch {
    return bodies;
  }
  for (const session of sessions) {
    const dir = join(root, session, 'email-text');
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of files) bodies.push(readFileSync(join(dir, file), 'utf8'));
  }
  return bodies;
}

const AUTH = 'http://127.0.0.1:9099';

/** An account in the auth emulator, as if the person had signed up elsewhere. */
export async function createAccount(email: string, password: string, displayName: string): Promise<void> {
  const response = await fetch(`${AUTH}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local-emulator`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, displayName }),
  });
  if (!response.ok) throw new Error(`could not create ${email}: ${await response.text()}`);
}

/** The out-of-band links (password reset mails) the emulator would have sent. */
export async function oobLinks(email: string): Promise<string[]> {
  const response = await fetch(`${AUTH}/emulator/v1/projects/demo-clinic/oobCodes`);
  const { oobCodes } = (await response.json()) as { oobCodes: { email: string; oobLink: string; requestType: string }[] };
  return oobCodes.filter((c) => c.email === email && c.requestType === 'PASSWORD_RESET').map((c) => c.oobLink);
}

export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
