import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';
import { REVIEWS_KEY } from '../../../lib/cache-keys.ts';

export type Review = {
  _id: string;
  img: string;
  review: string;
  location: string;
  name: string;
};

/** GET /api/reviews: the testimonials. */
export function useReviews() {
  return useSWR<Review[]>(REVIEWS_KEY, apiFetcher<Review[]>);
}
