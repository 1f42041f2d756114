import type { Proposal } from '../../../contract/links.ts';
import { labelStartText, startMinuteOf, startOfLabel } from '../../../contract/slot-label.ts';
import { type MessageSettingsRow, messageSettings } from '../clinic/data/message-settings.ts';
import { isNoEmailAddress } from '../people/data/users.ts';
import { clinicInstant, clinicNow } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { enqueue } from '../platform/events.ts';
import { languageOf, wordsFor } from '../platform/words.ts';
import {
  claimDueMail,
  deferMessage,
  type MailData,
  markMailDropped,
  markMailFailed,
  markMailSent,
  type OutboxRow,
  stillHeld,
} from './data/outbox.ts';
import { recallById } from './data/recalls.ts';
import { linkUrl } from './link-tokens.ts';
import { proposals } from './links.ts';
import type { MessageLinks } from './mail-compose.ts';
import { renderMail, renderSms } from './mail-templates.ts';
import { familyRecallMail, familyRecallSms, type RecallData } from './recall-mail.ts';
import { smsProvider } from './sms.ts';

/** SMS go out from 8:00 to 21:00 on the clinic's clock; one due in the night waits for the morning. */
export const SMS_HOURS = { from: 8 * 60, until: 21 * 60 };

/** When an SMS due at `now` may go: now, or the next 8:00 on the clinic's clock. */
export function smsSendableAt(env: Env, now: Date): Date {
  const { date, minute } = clinicNow(env, now);
  if (minute >= SMS_HOURS.from && minute < SMS_HOURS.until) return now;
  const day =
    minute < SMS_HOURS.from ? date : new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return clinicInstant(env, day, SMS_HOURS.from);
}

/**
 * The links a message carries: a reminder's answers and a visit's forms (each until the visit
 * ends, for the booking's version), a recall's booking page (90 days past due).
 */
async function linksOf(
  env: Env,
  row: OutboxRow,
  data: MailData & { recallId?: string; dueDate?: string },
): Promise<MessageLinks> {
  if (row.kind === 'reminder' || row.kind === 'confirmation') {
    const end = clinicInstant(env, data.date, data.startMinute + data.durationMinutes);
    const claims = { id: data.bookingId, version: data.version ?? 1, expiresAt: Math.floor(end.getTime() / 1000) };
    const forms = data.formsToFill ? { forms: await linkUrl(env, { ...claims, action: 'forms' }) } : {};
    if (row.kind === 'confirmation') return forms;
    return {
      confirm: await linkUrl(env, { ...claims, action: 'confirm' }),
      callback: await linkUrl(env, { ...claims, action: 'callback' }),
      cancel: await linkUrl(env, { ...claims, action: 'cancel' }),
      ...forms,
    };
  }
  if (row.kind === 'recall' && data.recallId && data.dueDate) {
    const expiresAt = Math.floor((Date.parse(`${data.dueDate}T00:00:00Z`) + 90 * 86_400_000) / 1000);
    const book = await linkUrl(env, { action: 'book', id: data.recallId, version: 0, expiresAt });
    // A mail shows the proposed times themselves; a text, the page that lists them.
    const recall = row.channel === 'mail' ? await recallById(env.DB, data.recallId) : null;
    const w = wordsFor(env, languageOf(data.language));
    // In English the spec's label ("Dec 3, 2026, 10.00 AM"); in another language its own date and time.
    const when = (p: Proposal) =>
      w.language === 'en'
        ? { date: p.date, time: labelStartText(p.slot) }
        : {
            date: w.day(p.appointmentDate),
            time: w.time(clinicInstant(env, p.appointmentDate, startMinuteOf(startOfLabel(p.slot) ?? '') ?? 0)),
          };
    const times = recall
      ? (await proposals(env, recall, clock())).map((p) => ({
          label: p.doctor ? w.t('recall.timeWith', { ...when(p), doctor: p.doctor }) : w.t('recall.time', when(p)),
          href: `${book}?date=${p.appointmentDate}&slot=${encodeURIComponent(p.slot)}`,
        }))
      : [];
    return { book, times };
  }
  return {};
}

/**
 * The messages the claimed rows make: one each, except a family's recall rows to one recipient by
 * one channel (the same `family`: account and month), which make one message together.
 */
function messagesOf(rows: OutboxRow[]): OutboxRow[][] {
  const messages = new Map<string, OutboxRow[]>();
  for (const row of rows) {
    const family = row.kind === 'recall' ? (JSON.parse(row.data) as RecallData).family : undefined;
    const key = family ? `family ${row.channel} ${row.recipient} ${family}` : row.id;
    messages.set(key, [...(messages.get(key) ?? []), row]);
  }
  return [...messages.values()];
}

/** Sends one message made of `rows` (one row, or a family's recalls) through its channel. */
async function sendMessage(env: Env, rows: OutboxRow[], settings: MessageSettingsRow, now: Date): Promise<void> {
  const [row] = rows;
  if (!row) return;
  const from = { name: settings.clinic_name, email: env.MAIL_FROM };
  if (rows.length > 1) {
    const members = rows.map((each) => JSON.parse(each.data) as MailData & RecallData);
    const today = clinicNow(env, now).date;
    if (row.channel === 'sms') {
      await smsProvider(env).send(row.recipient, familyRecallSms(env, settings, members, today));
      return;
    }
    const books = await Promise.all(
      members.map(async (member, i) => (await linksOf(env, rows[i] ?? row, member)).book),
    );
    await env.MAILER.send({ from, to: row.recipient, ...familyRecallMail(env, members, settings, books, today) });
    return;
  }
  const data = JSON.parse(row.data) as MailData;
  const links = await linksOf(env, row, data);
  if (row.channel === 'sms') {
    await smsProvider(env).send(row.recipient, renderSms(env, row.kind, data, settings, links));
  } else {
    await env.MAILER.send({ from, to: row.recipient, ...renderMail(env, row.kind, data, settings, now, links) });
  }
}

/** A mail is tried this many times (the retries 5, 10, 20 … minutes apart, at most 6 hours), then given up. */
export const MAX_MAIL_ATTEMPTS = 8;
const BATCH = 25;

/** When to try a mail again after its `attempts`-th failure. */
export function retryAt(now: Date, attempts: number): Date {
  const minutes = Math.min(5 * 2 ** Math.max(0, attempts - 1), 6 * 60);
  return new Date(now.getTime() + minutes * 60_000);
}

/** How long rows handed to the queue are held for its consumer (a backlog of minutes must not see them claimed twice). */
export const QUEUED_LEASE_MS = 30 * 60_000;
/** How many due messages one cron run or follow-up hands to the queue, at most. */
const ENQUEUE_LIMIT = 5000;

/** Claims up to `limit` messages due at `now` for `leaseMs` under a new token (see claimDueMail). */
async function claimDue(env: Env, now: Date, limit: number, leaseMs: number) {
  const token = crypto.randomUUID();
  const { results } = await claimDueMail(env.DB, token, now, leaseMs, limit, clinicNow(env, now).date).all<OutboxRow>();
  return { token, rows: results };
}

/**
 * Sends the messages claimed with `token`: a reminder whose booking was cancelled or moved since it
 * was queued is dropped, an SMS in the quiet hours waits for the morning, the rest go out through
 * their channel and are marked sent (only while `token` still holds them); a failure is retried
 * later with backoff. Answers how many were sent and how many failed.
 */
export async function sendClaimed(
  env: Env,
  claimed: { token: string; rows: OutboxRow[] },
  now: Date,
): Promise<{ sent: number; failed: number }> {
  const { token, rows: results } = claimed;
  if (results.length === 0) return { sent: 0, failed: 0 };
  const settings = await messageSettings(env.DB);
  let sent = 0;
  let failed = 0;
  const sendable: OutboxRow[] = [];
  for (const row of results) {
    if (row.stale) {
      await markMailDropped(env.DB, row.id, token, 'the booking was cancelled or moved').run();
      continue;
    }
    // A patient the desk booked without an email, or one erased: an .invalid address receives nothing.
    if (row.channel === 'mail' && isNoEmailAddress(row.recipient)) {
      await markMailDropped(env.DB, row.id, token, 'the patient has no email address').run();
      continue;
    }
    if (row.channel === 'sms') {
      const at = smsSendableAt(env, now);
      if (at > now) {
        await deferMessage(env.DB, row.id, token, at).run();
        continue;
      }
    }
    sendable.push(row);
  }
  // Held still? A claim that ran out was another sender's to take (a backlog): that one sends them.
  const held = new Set(
    await stillHeld(
      env.DB,
      sendable.map((row) => row.id),
      token,
    ),
  );
  for (const rows of messagesOf(sendable.filter((row) => held.has(row.id)))) {
    try {
      await sendMessage(env, rows, settings, now);
    } catch (cause) {
      failed += rows.length;
      const [row] = rows;
      console.error('mail failed', row?.kind, row?.id, cause);
      const error = cause instanceof Error ? cause.message : String(cause);
      for (const each of rows) {
        await markMailFailed(env.DB, each.id, token, {
          error,
          retryAt: retryAt(now, each.attempts),
          maxAttempts: MAX_MAIL_ATTEMPTS,
        }).run();
      }
      continue;
    }
    sent += rows.length;
    for (const each of rows) await markMailSent(env.DB, each.id, token, now).run();
  }
  return { sent, failed };
}

/**
 * Hands the messages due at `now` to the queue, BATCH to a queue message (a family's recall rows
 * stay together), up to ENQUEUE_LIMIT: the queue's consumers send them side by side, so a day of
 * reminders or a closure's cancellations do not wait in line 25 per cron run. Answers how many.
 */
export async function enqueueDueMail(env: Env, now: Date): Promise<number> {
  let queued = 0;
  while (queued < ENQUEUE_LIMIT) {
    const claimed = await claimDue(env, now, BATCH, QUEUED_LEASE_MS);
    if (claimed.rows.length === 0) break;
    await enqueue(env, [{ send: { ...claimed, at: now.toISOString() } }]);
    queued += claimed.rows.length;
  }
  return queued;
}
