import useSWR from 'swr';
import type { QueuedReview } from '../../../../../contract/reviews.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { QueuedReview };

export const REVIEW_QUEUE_KEY = '/reviews/moderation';

/** GET /api/reviews/moderation (admin): every review, pending first. */
export function useReviewQueue() {
  return useSWR<QueuedReview[]>(REVIEW_QUEUE_KEY, apiFetcher<QueuedReview[]>);
}
