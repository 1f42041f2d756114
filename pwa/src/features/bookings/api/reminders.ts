import { useCallback } from 'react';
import useSWR from 'swr';
import type { ReminderSetting, ReminderSettingSaved } from '../../../../../contract/messages.ts';
import { api } from '../../../lib/api.ts';
import { type MyRemindersKey, myRemindersKey } from '../../../lib/cache-keys.ts';

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
