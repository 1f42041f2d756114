import useSWR from 'swr';
import type { Review } from '../../../../../contract/reviews.ts';
import { apiFetcher } from '../../../lib/api.ts';

export type { Review };

export const REVIEWS_KEY = '/reviews';

/** GET /api/reviews: the testimonials. */
export function useReviews() {
  return useSWR<Review[]>(REVIEWS_KEY, apiFetcher<Review[]>);
}
