/**
 * SMS, the second channel (issue 26), behind a seam like the payment provider's: Twilio's REST API
 * when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set, otherwise the demo provider,
 * which sends nothing and writes each message to sms_log (in D1, under .wrangler/state locally).
 * Replies arrive at POST /api/sms/inbound, signed by X-Twilio-Signature: C, R and X act on the
 * booking of the latest SMS sent to that number, at its version; STOP and START are logged and hold
 * from the next send on.
 */
import type { SmsSetting } from '../../../contract/links.ts';
import { bookingById } from '../booking/data/bookings.ts';
import { callerOf } from '../people/auth.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readAtMost } from '../platform/http.ts';
import { spend } from '../platform/rate-limit.ts';
import { languageOf, wordsFor } from '../platform/words.ts';
import { latestSmsBooking } from './data/outbox.ts';
import { actOn } from './links.ts';
import { escapeHtml } from './mail-compose.ts';

export interface SmsProvider {
  name: 'demo' | 'twilio';
  /** Sends `body` to `to` (E.164); answers the provider's id of the message. Throws when refused. */
  send(to: string, body: string): Promise<string>;
}

import { messageSettings } from '../clinic/data/message-settings.ts';
import { inputOf } from '../platform/input.ts';
import { logSms, saveSmsSetting, setSmsStopped, smsPhoneTaken, smsSettingOf, smsUserByPhone } from './data/sms.ts';

export function smsProvider(env: Env): SmsProvider {
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM: from } = env;
  if (sid && token && from) {
    return {
      name: 'twilio',
      async send(to, body) {
        const response = await fetch(
          `${env.TWILIO_API_URL ?? 'https://api.twilio.com'}/2010-04-01/Accounts/${sid}/Messages.json`,
          {
            method: 'POST',
            headers: {
              Authorization: `Basic ${btoa(`${sid}:${token}`)}`,
              'Content-Type': 'application/x-www-form-urlencoded',
            },
            body: new URLSearchParams({ To: to, From: from, Body: body }),
          },
        );
        const answer = (await response.json().catch(() => ({}))) as { sid?: string; message?: string; code?: number };
        if (!response.ok || !answer.sid) {
          throw new Error(
            `the SMS provider refused the message (${response.status}${answer.code ? `, ${answer.code}` : ''})`,
          );
        }
        await logSms(env.DB, { direction: 'out', phone: to, body, provider: 'twilio', id: answer.sid }).run();
        return answer.sid;
      },
    };
  }
  return {
    name: 'demo',
    async send(to, body) {
      const id = `demo-${crypto.randomUUID()}`;
      await logSms(env.DB, { direction: 'out', phone: to, body, provider: 'demo', id }).run();
      return id;
    },
  };
}

/** The key inbound replies are signed with: Twilio's auth token, or (demo) one derived from JWT_SECRET. */
export const smsSigningKey = (env: Env) => env.TWILIO_AUTH_TOKEN ?? `demo-sms:${env.JWT_SECRET ?? ''}`;

/** Twilio's signature of a form POST: Base64(HMAC-SHA1(key, url + each parameter's name and value, by name)). */
export async function twilioSignature(key: string, url: string, params: URLSearchParams): Promise<string> {
  const names = [...new Set(params.keys())].sort();
  const data =
    url +
    names
      .map((name) =>
        params
          .getAll(name)
          .map((value) => name + value)
          .join(''),
      )
      .join('');
  const hmac = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(key),
    { name: 'HMAC', hash: 'SHA-1' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(data)));
  return btoa(String.fromCharCode(...mac));
}

const twiml = (message: string | null) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${escapeHtml(message)}</Message>` : ''}</Response>`,
    { headers: { 'Content-Type': 'text/xml; charset=utf-8' } },
  );

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES']);
const ACTIONS = { C: 'confirm', R: 'callback', X: 'cancel' } as const;

/** POST /api/sms/inbound: a reply, signed by the provider (403 otherwise). Answers TwiML. */
export async function smsInbound(request: Request, env: Env): Promise<Response> {
  const signature = request.headers.get('X-Twilio-Signature');
  if (!signature) throw new HttpError(403, 'Missing X-Twilio-Signature header');
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(await readAtMost(request, 16 * 1024)),
    );
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'The body is not a valid form');
  }
  const expected = await twilioSignature(smsSigningKey(env), request.url, params);
  const given = new TextEncoder().encode(signature);
  const wanted = new TextEncoder().encode(expected);
  if (given.byteLength !== wanted.byteLength || !crypto.subtle.timingSafeEqual(given, wanted)) {
    throw new HttpError(403, 'The signature does not match');
  }
  const phone = params.get('From') ?? '';
  const body = (params.get('Body') ?? '').trim();
  if (!/^\+[1-9]\d{7,14}$/.test(phone)) throw new HttpError(400, 'From must be a phone number like +15550102026');
  const word = body.toUpperCase();
  const user = await smsUserByPhone(env.DB, phone);
  const settings = await messageSettings(env.DB);
  const clinic = settings.clinic_name;
  // An answer to an account's number in its language (an unknown number gets none).
  const w = wordsFor(env, languageOf(user?.language));
  let outcome = 'not a number we know';
  let reply: string | null = null;
  if (user && (STOP_WORDS.has(word) || START_WORDS.has(word))) {
    const stop = STOP_WORDS.has(word);
    await env.DB.batch([
      setSmsStopped(env.DB, user.id, stop),
      auditEntry(
        env.DB,
        {
          actor: { id: user.id, email: user.email, role: 'patient' },
          action: stop ? 'sms.stopped' : 'sms.started',
          target: { type: 'sms', id: phone, name: null },
          before: { stopped: !stop },
          after: { stopped: stop },
        },
        IF_CHANGED,
      ),
    ]);
    outcome = stop ? 'stopped' : 'started';
    reply = w.t(stop ? 'sms.stopped' : 'sms.started', { clinic });
  } else if (user && word in ACTIONS) {
    const action = ACTIONS[word as keyof typeof ACTIONS];
    const latest = await latestSmsBooking(env.DB, phone);
    const row = latest ? await bookingById(env.DB, latest.booking_id, clock()) : null;
    if (
      !latest ||
      !row ||
      row.status !== 'active' ||
      row.expired ||
      row.version !== latest.booking_version ||
      row.account_id !== user.id
    ) {
      outcome = 'visit changed';
      reply = w.t('sms.visitChanged', { clinic });
    } else {
      try {
        await spend(env.BOOKING_LIMITER, `sms:${phone}`, 'replies');
        const acted = await actOn(env, row, latest.booking_version, action);
        if ('insideWindow' in acted) {
          outcome = 'refused: inside the cancellation window';
          reply = w.t('sms.insideWindow', { clinic, ...acted.insideWindow });
        } else {
          outcome = action;
          reply = w.t('sms.acted', { clinic, outcome: acted.done });
        }
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcome = `refused: ${error.message}`;
        reply = `${clinic}: ${error.message}`;
      }
    }
  } else if (user) {
    outcome = 'not understood';
    reply = w.t('sms.notUnderstood', { clinic, phone: settings.clinic_phone });
  }
  await logSms(env.DB, {
    direction: 'in',
    phone,
    body,
    provider: env.TWILIO_AUTH_TOKEN ? 'twilio' : 'demo',
    outcome,
  }).run();
  return twiml(reply);
}

const toSetting = (row: { sms_phone: string | null; sms_consent: number; sms_stopped: number }): SmsSetting => ({
  phone: row.sms_phone,
  smsConsent: row.sms_consent === 1,
  stopped: row.sms_stopped === 1,
});

/** GET /api/users/me/sms: the patient's mobile number and SMS consent. */
export async function getSmsSetting(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const row = await smsSettingOf(env.DB, user.id);
  if (!row) throw new HttpError(404, 'No such user');
  return json(toSetting(row));
}

/** PUT /api/users/me/sms: sets the number and consent (consent needs a number); agreeing again clears a STOP. */
export async function setSmsSetting(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const { phone, smsConsent } = inputOf(request, 'PUT /users/me/sms').body;
  if (smsConsent && !phone) throw new HttpError(400, 'Add your mobile number to get texts');
  const taken = phone ? await smsPhoneTaken(env.DB, phone, user.id) : false;
  if (taken) throw new HttpError(409, 'This number belongs to another account; call the clinic if it is yours');
  const row = await saveSmsSetting(env.DB, user.id, phone, smsConsent);
  if (!row) throw new HttpError(404, 'No such user');
  return json(toSetting(row));
}
