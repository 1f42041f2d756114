import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { MessageSettings, MessageSettingsChange } from '../../../../../contract/messages.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { MESSAGE_SETTINGS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { refreshClinicInfo } from '../../../lib/clinic-info.ts';

export type { MessageSettings };

/** GET /api/messages/settings (admin): the clinic's name, address and phone in mails, the second reminder, the offer hold. */
export function useMessageSettings() {
  return useSWR<MessageSettings>(MESSAGE_SETTINGS_KEY, apiFetcher<MessageSettings>);
}

/** PUT /api/messages/settings (admin); the pages that show the clinic's name, address and phone follow. */
export function useSaveMessageSettings() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (change: MessageSettingsChange): Promise<MessageSettings> => {
      const saved = await client('PUT /messages/settings', { body: change });
      await mutate(MESSAGE_SETTINGS_KEY, saved, { revalidate: false });
      await refreshClinicInfo();
      return saved;
    },
    [mutate],
  );
}
