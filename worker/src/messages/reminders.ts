import type { MessageSettings, ReminderSetting, ReminderSettingSaved } from '../../../contract/messages.ts';
import { forgetClinicInfo } from '../clinic/clinic-info.ts';
import { type MessageSettingsRow, messageSettings, updateMessageSettings } from '../clinic/data/message-settings.ts';
import { callerOf } from '../people/auth.ts';
import { auditEntry, changesAnything, definedOnly, type Fields } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { queueClaimedReminders } from './data/outbox.ts';
import { claimDueReminders, closeClaimedReminders, remindersOptOut, setRemindersOptOut } from './data/reminders.ts';

/** How long a run holds the reminders it claimed; a run that died is taken over after this. */
export const REMINDER_LEASE_MS = 4 * 60_000;
const BATCH = 100;

/**
 * The reminder pass of a cron run at `now` (the trigger's scheduled time, never the wall clock):
 * claims the due reminders by compare-and-set, then, in one batch, re-reads each one's booking and
 * queues its mail only while the booking is active at the same version and start, the patient wants
 * reminders, the clinic sends that kind, and it is not too late; every claimed row is closed as
 * 'sent' or 'skipped' with the reason. Two overlapping runs never queue a reminder twice (the claim,
 * and the outbox's one mail per reminder). Answers how many mails were queued.
 */
export async function queueDueReminders(env: Env, now: Date): Promise<number> {
  const token = crypto.randomUUID();
  let queued = 0;
  while (true) {
    const { results } = await claimDueReminders(env.DB, token, now, REMINDER_LEASE_MS, BATCH).all<{ id: string }>();
    if (results.length === 0) return queued;
    const [insert] = await env.DB.batch([
      queueClaimedReminders(env.DB, token, now),
      closeClaimedReminders(env.DB, token, now),
    ]);
    queued += insert?.meta.changes ?? 0;
    if (results.length < BATCH) return queued;
  }
}

/** GET /api/users/me/reminders: whether the signed-in patient gets reminders. */
export async function getReminderSetting(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const optOut = await remindersOptOut(env.DB, user.id);
  return json({ remindersOn: optOut !== 1 } satisfies ReminderSetting);
}

/** PUT /api/users/me/reminders: the patient turns reminders on or off (read again when each is due). */
export async function setReminderSetting(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const { remindersOn } = inputOf(request, 'PUT /users/me/reminders').body;
  await setRemindersOptOut(env.DB, user.id, !remindersOn).run();
  return json({ acknowledged: true, remindersOn } satisfies ReminderSettingSaved);
}

const toMessageSettings = (row: MessageSettingsRow): MessageSettings => ({
  clinicName: row.clinic_name,
  clinicAddress: row.clinic_address,
  clinicPhone: row.clinic_phone,
  secondReminder: row.second_reminder === 1,
  offerHoldMinutes: row.offer_hold_minutes,
  paySoonHours: row.pay_soon_hours,
  recallSteps: JSON.parse(row.recall_steps) as number[],
  doctorFeedNames: row.doctor_feed_names === 1,
});

/** GET /api/messages/settings (admin). */
export async function getMessageSettings(_request: Request, env: Env): Promise<Response> {
  return json(toMessageSettings(await messageSettings(env.DB)));
}

/**
 * PUT /api/messages/settings (admin): the fields sent change, with their audit row in the same
 * batch when any did; the 2-hour reminder applies to every reminder not yet due.
 */
export async function setMessageSettings(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const changes = inputOf(request, 'PUT /messages/settings').body;
  const before: Fields = toMessageSettings(await messageSettings(env.DB));
  const after: Fields = { ...before, ...definedOnly(changes) };
  const audit = auditEntry(env.DB, {
    actor: admin,
    action: 'clinic.messages_changed',
    target: { type: 'clinic', id: 'messages', name: 'Message settings' },
    before,
    after,
  });
  const [updated] = await env.DB.batch([
    updateMessageSettings(env.DB, changes),
    ...(changesAnything(before, after) ? [audit] : []),
  ]);
  const row = updated?.results[0] as MessageSettingsRow | undefined;
  if (!row) throw new Error('message_settings has no row (migration 0008)');
  forgetClinicInfo();
  return json(toMessageSettings(row));
}
