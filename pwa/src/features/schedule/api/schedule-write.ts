import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { isAppointmentOptionsKey } from '../../../lib/cache-keys.ts';

/**
 * A write to the clinic's schedule, then what it changes: its own list (`listKey`) and every day's
 * free slots. The list is current before the write resolves; a refusal reloads it too (a row
 * deleted elsewhere, a name taken meanwhile), so the screen shows how things are.
 */
export function useScheduleWrite<Args extends unknown[], Result>(
  write: (...args: Args) => Promise<Result>,
  listKey: string,
) {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (...args: Args): Promise<Result> => {
      try {
        return await write(...args);
      } finally {
        void mutate(isAppointmentOptionsKey);
        await mutate(listKey);
      }
    },
    [mutate, write, listKey],
  );
}
