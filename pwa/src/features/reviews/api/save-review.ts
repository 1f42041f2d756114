import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { NewReview, ReviewSaved } from '../../../../../contract/reviews.ts';
import { api } from '../../../lib/api.ts';
import { isOwnReviewKey, REVIEW_QUEUE_KEY, REVIEWS_KEY } from '../../../lib/cache-keys.ts';

export type { NewReview };

/** The limits POST /api/reviews enforces (after trimming). */
export const REVIEW_LIMITS = { review: { min: 10, max: 1000 }, location: { min: 1, max: 100 } } as const;

/**
 * POST /api/reviews (signed in): writes the patient's one review, or rewrites it. It waits for the
 * clinic's approval; `message` says so. A 403 (no appointment yet) or 400 carries the server's message.
 */
export function saveReview(review: NewReview): Promise<ReviewSaved> {
  return api('/reviews', { method: 'POST', body: JSON.stringify(review) });
}

/**
 * Saves the patient's review, then refreshes what it changes: the home page's testimonials (an
 * edit takes an approved review off them until it is approved again), the admins' queue, and the
 * patient's own review, which is reloaded before this resolves.
 */
export function useSaveReview() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (review: NewReview): Promise<ReviewSaved> => {
      const saved = await saveReview(review);
      void mutate(REVIEWS_KEY);
      void mutate(REVIEW_QUEUE_KEY);
      await mutate(isOwnReviewKey);
      return saved;
    },
    [mutate],
  );
}
