import useSWR from 'swr';
import type { Recall, RecallList, RecallStatus, RecallsImported } from '../../../../../contract/recalls.ts';
import type { Treatment } from '../../../../../contract/treatments.ts';
import type { PatientMatch } from '../../../../../contract/users.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { patientSearchKey, TREATMENTS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { Recall, RecallList, RecallStatus, RecallsImported };

const recallsKey = (status: RecallStatus | 'open') =>
  pathOf('GET /recalls', { query: { status: status === 'open' ? null : status } });

/** GET /api/recalls (admin): the open recalls, or those of a status, and the clinic's compliance. */
export function useRecalls(status: RecallStatus | 'open') {
  return useSWR<RecallList>(recallsKey(status), apiFetcher<RecallList>);
}

/** PUT /api/recalls/:id (admin): close a recall, or stop or allow its messages. */
export function changeRecall(id: string, body: { status?: 'closed'; doNotContact?: boolean }) {
  return client('PUT /recalls/:id', { params: { id }, body });
}

/** POST /api/recalls/import (admin): the CSV's recalls, and the lines skipped with their reasons. */
export function importRecalls(csv: string): Promise<RecallsImported> {
  return client('POST /recalls/import', { body: { csv } });
}

/** POST /api/recalls (admin): a recall for one patient, due on `dueDate` (ISO). */
export function addRecall(recall: { patientId: string; treatmentId: string; dueDate: string }) {
  return client('POST /recalls', { body: recall });
}

/** GET /api/users/search?q= (admin): the patients a recall can be for, from 2 characters typed. */
export function usePatientsToRecall(q: string) {
  const text = q.trim();
  return useSWR<PatientMatch[]>(text.length >= 2 ? patientSearchKey(text) : null, apiFetcher<PatientMatch[]>, {
    keepPreviousData: true,
  });
}

/** GET /api/treatments (admin): what a recall can be for. */
export function useRecallTreatments() {
  return useSWR<Treatment[]>(TREATMENTS_KEY, apiFetcher<Treatment[]>);
}
