import { useCallback } from 'react';
import useSWR from 'swr';
import type { SmsSetting } from '../../../../../contract/links.ts';
import type { ReminderSetting } from '../../../../../contract/messages.ts';
import { type MyRemindersKey, type MySmsKey, myRemindersKey, mySmsKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

/** GET /api/users/me/reminders: whether the signed-in patient gets reminders by mail. */
export function useReminderSetting(email: string | null | undefined) {
  const swr = useSWR<ReminderSetting, unknown, MyRemindersKey | null>(email ? myRemindersKey(email) : null, () =>
    client('GET /users/me/reminders'),
  );
  const { mutate } = swr;
  /** PUT /api/users/me/reminders: stored on the server, read again before each reminder goes out. */
  const save = useCallback(
    async (remindersOn: boolean) => {
      const saved = await client('PUT /users/me/reminders', { body: { remindersOn } });
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
    client('GET /users/me/sms'),
  );
  const { mutate } = swr;
  /** PUT /api/users/me/sms: the server cleans and checks the number. */
  const save = useCallback(
    async (phone: string | null, smsConsent: boolean) => {
      const saved = await client('PUT /users/me/sms', { body: { phone, smsConsent } });
      await mutate(saved, { revalidate: false });
      return saved;
    },
    [mutate],
  );
  return { ...swr, save };
}
