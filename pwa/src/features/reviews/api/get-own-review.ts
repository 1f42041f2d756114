import useSWR from 'swr';
import { api } from '../../../lib/api.ts';
import { ownReviewKey, type OwnReviewKey } from '../../../lib/cache-keys.ts';

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

/** GET /api/reviews/mine (signed in): whether the patient may write a review (a past appointment), and theirs. */
export function useOwnReview(email: string | null | undefined) {
  return useSWR<OwnReview, unknown, OwnReviewKey | null>(
    email ? ownReviewKey(email) : null,
    ([path]) => api<OwnReview>(path),
  );
}
