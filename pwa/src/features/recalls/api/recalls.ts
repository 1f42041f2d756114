import useSWR from 'swr';
import type { Recall, RecallList, RecallStatus, RecallsImported } from '../../../../../contract/recalls.ts';
import { api, apiFetcher } from '../../../lib/api.ts';

export type { Recall, RecallList, RecallStatus, RecallsImported };

const RECALLS = '/recalls';
const recallsKey = (status: RecallStatus | 'open') => (status === 'open' ? RECALLS : `${RECALLS}?status=${status}`);

/** GET /api/recalls (admin): the open recalls, or those of a status, and the clinic's compliance. */
export function useRecalls(status: RecallStatus | 'open') {
  return useSWR<RecallList>(recallsKey(status), apiFetcher<RecallList>);
}

/** PUT /api/recalls/:id (admin): close a recall, or stop or allow its messages. */
export function changeRecall(id: string, body: { status?: 'closed'; doNotContact?: boolean }) {
  return api(`${RECALLS}/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(body) });
}

/** POST /api/recalls/import (admin): the CSV's recalls, and the lines skipped with their reasons. */
export function importRecalls(csv: string): Promise<RecallsImported> {
  return api<RecallsImported>(`${RECALLS}/import`, { method: 'POST', body: JSON.stringify({ csv }) });
}
