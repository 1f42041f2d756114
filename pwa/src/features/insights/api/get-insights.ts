import useSWR from 'swr';
import type { InsightsAnswer, InsightsDay } from '../../../../../contract/insights.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { InsightsAnswer, InsightsDay };

export const insightsKey = (from: string, to: string) => pathOf('GET /insights', { query: { from, to } });

/** GET /api/insights?from=&to= (admin): the practice's figures per day and in total. */
export function useInsights(from: string, to: string) {
  return useSWR<InsightsAnswer>(insightsKey(from, to), apiFetcher<InsightsAnswer>, { keepPreviousData: true });
}
