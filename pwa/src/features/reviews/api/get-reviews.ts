import useSWR from 'swr';
import type { Review } from '../../../../../contract/reviews.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { REVIEWS_KEY } from '../../../lib/cache-keys.ts';

export type { Review };

/** GET /api/reviews: the testimonials. */
export function useReviews() {
  return useSWR<Review[]>(REVIEWS_KEY, apiFetcher<Review[]>);
}
