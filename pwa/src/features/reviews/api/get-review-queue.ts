import useSWR from 'swr';
import type { QueuedReview } from '../../../../../contract/reviews.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { REVIEW_QUEUE_KEY } from '../../../lib/cache-keys.ts';

export type { QueuedReview };

/** GET /api/reviews/moderation (admin): every review, pending first. */
export function useReviewQueue() {
  return useSWR<QueuedReview[]>(REVIEW_QUEUE_KEY, apiFetcher<QueuedReview[]>);
}
