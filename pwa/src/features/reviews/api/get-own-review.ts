import useSWR from 'swr';
import type { ModeratedReview, OwnReview, ReviewStatus } from '../../../../../contract/reviews.ts';
import { api } from '../../../lib/api.ts';

export type { ModeratedReview, OwnReview, ReviewStatus };

export const OWN_REVIEW_KEY = '/reviews/mine';

/** GET /api/reviews/mine (signed in): whether the patient may write a review (a past appointment), and theirs. */
export function useOwnReview(email: string | null | undefined) {
  return useSWR<OwnReview, unknown, readonly [typeof OWN_REVIEW_KEY, string] | null>(
    email ? [OWN_REVIEW_KEY, email] : null,
    () => api<OwnReview>(OWN_REVIEW_KEY),
  );
}
