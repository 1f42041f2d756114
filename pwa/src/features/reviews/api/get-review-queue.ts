import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import type { ModeratedReview } from './get-own-review.ts';

export type QueuedReview = ModeratedReview & { email: string | null };

export const REVIEW_QUEUE_KEY = '/reviews/moderation';

/** GET /api/reviews/moderation (admin): every review, pending first. */
export function useReviewQueue() {
  return useSWR<QueuedReview[]>(REVIEW_QUEUE_KEY, apiFetcher<QueuedReview[]>);
}
