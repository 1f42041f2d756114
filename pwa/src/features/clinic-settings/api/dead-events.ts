import { useCallback } from 'react';
import useSWR from 'swr';
import type { DeadEvent } from '../../../../../contract/messages.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { DEAD_EVENTS_KEY } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { DeadEvent };

/** GET /api/events/dead (admin): changes whose mails, texts or waitlist offers could not be carried out. */
export function useDeadEvents() {
  return useSWR<DeadEvent[]>(DEAD_EVENTS_KEY, apiFetcher<DeadEvent[]>);
}

/** POST /api/events/dead/:seq/replay (admin): try that change's consequences again. */
export function useReplayDeadEvent() {
  return useCallback((seq: number) => client('POST /events/dead/:seq/replay', { params: { seq: String(seq) } }), []);
}
