import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { Recall, RecallList, RecallStatus, RecallsImported } from '../../../../../contract/recalls.ts';
import { api, apiFetcher } from '../../../lib/api.ts';

export type { Recall, RecallList, RecallStatus, RecallsImported };

const RECALLS = '/recalls';
const recallsKey = (status: RecallStatus | 'open') => (status === 'open' ? RECALLS : `${RECALLS}?status=${status}`);
const isRecallsKey = (key: unknown) => typeof key === 'string' && (key === RECALLS || key.startsWith(`${RECALLS}?`));

/** GET /api/recalls (admin): the open recalls, or those of a status, and the clinic's compliance. */
export function useRecalls(status: RecallStatus | 'open') {
  return useSWR<RecallList>(recallsKey(status), apiFetcher<RecallList>);
}

/** PUT /api/recalls/:id and POST /api/recalls/import, each reloading every recall list. */
export function useRecallActions() {
  const { mutate } = useSWRConfig();
  const change = useCallback(
    async (id: string, body: { status?: 'closed'; doNotContact?: boolean }) => {
      try {
        return await api(`${RECALLS}/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(body) });
      } finally {
        await mutate(isRecallsKey);
      }
    },
    [mutate],
  );
  const importCsv = useCallback(
    async (csv: string) => {
      try {
        return await api<RecallsImported>(`${RECALLS}/import`, { method: 'POST', body: JSON.stringify({ csv }) });
      } finally {
        await mutate(isRecallsKey);
      }
    },
    [mutate],
  );
  return { change, importCsv };
}
