import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  claimMailing,
  contactMessageByKey,
  insertContactMessage,
  markMailed,
  releaseMailingClaim,
  type StoredMessage,
} from '../../src/messages/data/contact.ts';

const db = env.DB;
const message = { user_name: 'Ada', user_email: 'ada@example.com', subject: 'Hello', message: 'Hi there' };

describe('contact messages: statements against D1', () => {
  it('stores a message once per Idempotency-Key: a second insert stores and returns nothing', async () => {
    const stored = await insertContactMessage(db, 'm-1', 'key-00000001', message).first<StoredMessage>();
    expect(stored).toEqual({ id: 'm-1', ...message, mailed_at: null });
    expect(await insertContactMessage(db, 'm-2', 'key-00000001', { ...message, subject: 'Other' }).first()).toBeNull();
    expect(await contactMessageByKey(db, 'key-00000001')).toEqual(stored);
    expect(await contactMessageByKey(db, 'key-unknown')).toBeNull();
  });

  it('lets one claim win the mailing; a released claim can be taken again, a mailed message never', async () => {
    await insertContactMessage(db, 'm-3', 'key-00000003', message).run();
    expect(await claimMailing(db, 'm-3', '-2 minutes').first()).toEqual({ id: 'm-3' });
    expect(await claimMailing(db, 'm-3', '-2 minutes').first()).toBeNull();
    await releaseMailingClaim(db, 'm-3').run();
    expect(await claimMailing(db, 'm-3', '-2 minutes').first()).toEqual({ id: 'm-3' });
    await markMailed(db, 'm-3').run();
    expect((await contactMessageByKey(db, 'key-00000003'))?.mailed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    await releaseMailingClaim(db, 'm-3').run();
    expect(await claimMailing(db, 'm-3', '-2 minutes').first()).toBeNull();
  });

  it('takes over a claim older than the timeout (its request died mid-send)', async () => {
    await insertContactMessage(db, 'm-4', 'key-00000004', message).run();
    expect(await claimMailing(db, 'm-4', '-2 minutes').first()).toEqual({ id: 'm-4' });
    // A timeout of '+1 minutes' makes the claim just taken older than the timeout.
    expect(await claimMailing(db, 'm-4', '+1 minutes').first()).toEqual({ id: 'm-4' });
  });
});
