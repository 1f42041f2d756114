import useSWR from 'swr';
import { api } from '../../../lib/api.ts';

export type ReviewStatus = 'pending' | 'approved' | 'hidden';

/** A review with what only its author and admins see. */
export type ModeratedReview = {
  _id: string;
  name: string;
  img: string;
  review: string;
  location: string;
  status: ReviewStatus;
  /** Goes up with every edit; an admin's decision names the version they read. */
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type OwnReview = { canReview: boolean; review: ModeratedReview | null };

export const OWN_REVIEW_KEY = '/reviews/mine';

/** GET /api/reviews/mine (signed in): whether the patient may write a review (a past appointment), and theirs. */
export function useOwnReview(email: string | null | undefined) {
  return useSWR<OwnReview, unknown, readonly [typeof OWN_REVIEW_KEY, string] | null>(
    email ? [OWN_REVIEW_KEY, email] : null,
    () => api<OwnReview>(OWN_REVIEW_KEY),
  );
}
