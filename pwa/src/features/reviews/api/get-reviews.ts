import useSWR from 'swr';
import { apiFetcher } from '../../../lib/api.ts';

export type Review = {
  _id: string;
  img: string;
  review: string;
  location: string;
  name: string;
};

export const REVIEWS_KEY = '/reviews';

/** GET /api/reviews: the testimonials. */
export function useReviews() {
  return useSWR<Review[]>(REVIEWS_KEY, apiFetcher<Review[]>);
}
