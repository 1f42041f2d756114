import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { contactMail } from '../src/messages/contact.ts';
import { call, count } from './helpers.ts';

const message = {
  user_name: 'Ada Lovelace',
  user_email: 'Ada@Example.com',
  subject: 'Opening hours on holidays',
  message: 'Are you open on the 26th?',
};

/** The real send_email binding, with every message it was given recorded. */
let sent: EmailMessageBuilder[];
let mailer: SendEmail;
beforeEach(async () => {
  await env.DB.exec('DELETE FROM contact_messages');
  sent = [];
  mailer = {
    send: async (mail: EmailMessageBuilder) => {
      sent.push(mail);
      return env.MAILER.send(mail);
    },
  } as SendEmail;
});

function postContact(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'key-0001-abcdef', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  return call('/api/contact', init, { MAILER: mailer });
}

describe('POST /api/contact', () => {
  it('stores the message and mails it to the clinic inbox once', async () => {
    const response = await postContact(message);
    expect(response.status).toBe(201);
    const body = await response.json<{ acknowledged: boolean; insertedId: string }>();
    expect(body.acknowledged).toBe(true);

    const row = await env.DB.prepare('SELECT * FROM contact_messages WHERE id = ?1')
      .bind(body.insertedId)
      .first<Record<string, string>>();
    expect(row).toMatchObject({ user_name: 'Ada Lovelace', user_email: 'ada@example.com', subject: message.subject });
    expect(row?.mailed_at).toBeTruthy();

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: env.CLINIC_INBOX,
      replyTo: { name: 'Ada Lovelace', email: 'ada@example.com' },
      subject: '[Contact] Opening hours on holidays',
    });
    expect(sent[0]?.text).toContain('Are you open on the 26th?');
  });

  it('answers a replay with the same key with the same message id, storing and mailing nothing twice', async () => {
    const first = await (await postContact(message)).json<{ insertedId: string }>();
    const replay = await postContact(message);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ acknowledged: true, insertedId: first.insertedId });
    expect(await count('contact_messages')).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('mails once when the same message arrives several times at once', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => postContact(message)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await count('contact_messages')).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('refuses a key reused for a different message', async () => {
    await postContact(message);
    const response = await postContact({ ...message, message: 'Something else' });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      acknowledged: false,
      message: expect.stringContaining('Idempotency-Key'),
    });
    expect(sent).toHaveLength(1);
  });

  it('keeps a message whose mail failed and mails it on the retry', async () => {
    const working = mailer;
    mailer = { send: async () => Promise.reject(new Error('mail relay down')) } as unknown as SendEmail;
    const failed = await postContact(message);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ message: expect.stringContaining('saved') });
    expect(await count('contact_messages')).toBe(1);

    mailer = working;
    const retried = await postContact(message);
    expect(retried.status).toBe(200);
    expect(sent).toHaveLength(1);
    const row = await env.DB.prepare('SELECT mailed_at FROM contact_messages').first<{ mailed_at: string }>();
    expect(row?.mailed_at).toBeTruthy();
  });

  it('keeps the line breaks and tabs of a message, and mails headers of one line each', async () => {
    const lines = { ...message, message: 'First line\r\nSecond line\n\tIndented: Bcc: x@example.com' };
    const response = await postContact(lines);
    expect(response.status).toBe(201);
    const row = await env.DB.prepare('SELECT user_name, subject, message FROM contact_messages').first<
      Record<string, string>
    >();
    expect(row).toEqual({ user_name: 'Ada Lovelace', subject: message.subject, message: lines.message });
    // What the real send_email binding was given (and wrote): single-line headers, the message in the body.
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail.subject).toBe('[Contact] Opening hours on holidays');
    expect(mail.replyTo).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(mail.text).toContain(lines.message);
  });

  it('builds mail headers only from safe text, even from a row stored before input was checked', () => {
    const mail = contactMail(env, {
      user_name: 'Eve\r\nBcc: victim@example.com',
      user_email: 'eve@example.com\r\nX-Injected: yes',
      subject: 'Hello\r\nX-Injected: yes\u2028Cc: other@example.com',
      message: 'Body',
    });
    for (const header of [mail.subject, JSON.stringify(mail.from)]) expect(header).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(mail.subject).toBe('[Contact] Hello X-Injected: yes Cc: other@example.com');
    // An address that is not a plain one gets no Reply-To at all.
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text?.split('\n')[0]).toBe('From: Eve Bcc: victim@example.com <eve@example.com X-Injected: yes>');
  });

  it('ignores fields it does not know', async () => {
    const response = await postContact({ ...message, role: 'admin', id: 'x' });
    expect(response.status).toBe(201);
  });

  const badRequests: [string, unknown, Record<string, string>, number, string][] = [
    ['a missing name', { ...message, user_name: undefined }, {}, 400, 'user_name is required'],
    ['a blank subject', { ...message, subject: '   ' }, {}, 400, 'subject is required'],
    ['a number as message', { ...message, message: 42 }, {}, 400, 'message is required and must be text'],
    [
      'a malformed email',
      { ...message, user_email: 'not-an-email' },
      {},
      400,
      'user_email must be a valid email address',
    ],
    [
      'an over-long name',
      { ...message, user_name: 'x'.repeat(101) },
      {},
      400,
      'user_name must be at most 100 characters',
    ],
    [
      'an over-long message',
      { ...message, message: 'x'.repeat(5001) },
      {},
      400,
      'message must be at most 5000 characters',
    ],
    ['an array body', [message], {}, 400, 'The body must be a JSON object'],
    ['malformed JSON', '{"user_name": "Ada",', {}, 400, 'not valid JSON'],
    ['an empty body', '', {}, 400, 'not valid JSON'],
    ['a form body', 'user_name=Ada', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415, 'JSON'],
    ['no Idempotency-Key', message, { 'Idempotency-Key': '' }, 400, 'Idempotency-Key'],
    ['a malformed Idempotency-Key', message, { 'Idempotency-Key': 'a b' }, 400, 'Idempotency-Key'],
    ['a huge body', { ...message, message: 'x'.repeat(200_000) }, {}, 413, 'larger than 64 KB'],
    [
      'a header injected into the subject',
      { ...message, subject: 'Hi\r\nBcc: victim@example.com' },
      {},
      400,
      'subject must be one line',
    ],
    [
      'a header injected into the name',
      { ...message, user_name: 'Ada\r\nX-Injected: yes' },
      {},
      400,
      'user_name must be one line',
    ],
    ['a bare line feed in the subject', { ...message, subject: 'Hi\nthere' }, {}, 400, 'subject must be one line'],
    ['a tab in the name', { ...message, user_name: 'Ada\tLovelace' }, {}, 400, 'user_name must be one line'],
    [
      'a line separator in the subject',
      { ...message, subject: 'Hi\u2028Bcc: x@example.com' },
      {},
      400,
      'subject must be one line',
    ],
    [
      'a control character in the email',
      { ...message, user_email: 'ada@example.com\r\nBcc: x@example.com' },
      {},
      400,
      'user_email must be one line',
    ],
    [
      'a NUL in the message',
      { ...message, message: 'Hello\u0000there' },
      {},
      400,
      'message must not contain control characters',
    ],
    [
      'an escape in the message',
      { ...message, message: 'Hello \u001b[31mred' },
      {},
      400,
      'message must not contain control characters',
    ],
  ];
  for (const [what, body, headers, status, text] of badRequests) {
    it(`refuses ${what} with ${status}, storing and mailing nothing`, async () => {
      const response = await postContact(body, headers);
      expect(response.status).toBe(status);
      const answer = await response.json<{ acknowledged: boolean; message: string }>();
      expect(answer.acknowledged).toBe(false);
      expect(answer.message).toContain(text);
      expect(await count('contact_messages')).toBe(0);
      expect(sent).toHaveLength(0);
    });
  }

  it('refuses a huge body sent without Content-Length (streamed)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sentChunks = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sentChunks++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'key-stream-0001' },
      body: stream,
    };
    const response = await call('/api/contact', init, { MAILER: mailer });
    expect(response.status).toBe(413);
    expect(await count('contact_messages')).toBe(0);
  });
});
