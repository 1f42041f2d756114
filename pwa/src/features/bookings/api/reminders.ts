import { useCallback } from 'react';
import useSWR from 'swr';
import type { SmsSetting } from '../../../../../contract/links.ts';
import type { ReminderSetting, ReminderSettingSaved } from '../../../../../contract/messages.ts';
import { api } from '../../../lib/api.ts';
import { type MyRemindersKey, type MySmsKey, myRemindersKey, mySmsKey } from '../../../lib/cache-keys.ts';

/** GET /api/users/me/reminders: whether the signed-in patient gets reminders by mail. */
export function useReminderSetting(email: string | null | undefined) {
  const swr = useSWR<ReminderSetting, unknown, MyRemindersKey | null>(email ? myRemindersKey(email) : null, () =>
    api<ReminderSetting>('/users/me/reminders'),
  );
  const { mutate } = swr;
  /** PUT /api/users/me/reminders: stored on the server, read again before each reminder goes out. */
  const save = useCallback(
    async (remindersOn: boolean) => {
      const saved = await api<ReminderSettingSaved>('/users/me/reminders', {
        method: 'PUT',
        body: JSON.stringify({ remindersOn } satisfies ReminderSetting),
      });
      await mutate({ remindersOn: saved.remindersOn }, { revalidate: false });
      return saved;
    },
    [mutate],
  );
  return { ...swr, save };
}

/** GET /api/users/me/sms: the patient's mobile number, SMS consent, and whether they replied STOP. */
export function useSmsSetting(email: string | null | undefined) {
  const swr = useSWR<SmsSetting, unknown, MySmsKey | null>(email ? mySmsKey(email) : null, () =>
    api<SmsSetting>('/users/me/sms'),
  );
  const { mutate } = swr;
  /** PUT /api/users/me/sms: the server cleans and checks the number. */
  const save = useCallback(
    async (phone: string | null, smsConsent: boolean) => {
      const saved = await api<SmsSetting>('/users/me/sms', {
        method: 'PUT',
        body: JSON.stringify({ phone, smsConsent }),
      });
      await mutate(saved, { revalidate: false });
      return saved;
    },
    [mutate],
  );
  return { ...swr, save };
}
