import useSWR from 'swr';
import type { ModeratedReview, OwnReview, ReviewStatus } from '../../../../../contract/reviews.ts';
import { type OwnReviewKey, ownReviewKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { ModeratedReview, OwnReview, ReviewStatus };

/** GET /api/reviews/mine (signed in): whether the patient may write a review (a past appointment), and theirs. */
export function useOwnReview(email: string | null | undefined) {
  return useSWR<OwnReview, unknown, OwnReviewKey | null>(email ? ownReviewKey(email) : null, () =>
    client('GET /reviews/mine'),
  );
}
