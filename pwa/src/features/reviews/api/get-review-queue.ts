import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { REVIEW_QUEUE_KEY } from '../../../lib/cache-keys.ts';
import type { ModeratedReview } from './get-own-review.ts';

export type QueuedReview = ModeratedReview & { email: string | null };

/** GET /api/reviews/moderation (admin): every review, pending first. */
export function useReviewQueue() {
  return useSWR<QueuedReview[]>(REVIEW_QUEUE_KEY, apiFetcher<QueuedReview[]>);
}
