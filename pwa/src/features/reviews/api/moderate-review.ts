import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Moderation, ReviewModerated } from '../../../../../contract/reviews.ts';
import { api } from '../../../lib/api.ts';
import { REVIEW_QUEUE_KEY, REVIEWS_KEY } from '../../../lib/cache-keys.ts';
import { ApiError } from '../../../lib/http.ts';

/**
 * PUT /api/reviews/:id/status (admin): approves or hides the version of the review the admin read;
 * a 409 says it was edited since.
 */
export function moderateReview(id: string, decision: Moderation): Promise<ReviewModerated> {
  return api(`/reviews/${encodeURIComponent(id)}/status`, { method: 'PUT', body: JSON.stringify(decision) });
}

/**
 * Approves or hides the review, then refreshes the home page's testimonials and the queue, which is
 * reloaded before this resolves. A 409 (edited since it was read) reloads the queue too, so the
 * new text shows before anyone decides again.
 */
export function useModerateReview() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string, decision: Parameters<typeof moderateReview>[1]) => {
      let result: Awaited<ReturnType<typeof moderateReview>>;
      try {
        result = await moderateReview(id, decision);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) await mutate(REVIEW_QUEUE_KEY);
        throw error;
      }
      void mutate(REVIEWS_KEY);
      await mutate(REVIEW_QUEUE_KEY);
      return result;
    },
    [mutate],
  );
}
