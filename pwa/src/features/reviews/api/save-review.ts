import type { NewReview, ReviewSaved } from '../../../../../contract/reviews.ts';
import { client } from '../../../lib/client.ts';

export type { NewReview };

/** The limits POST /api/reviews enforces (after trimming). */
export const REVIEW_LIMITS = { review: { min: 10, max: 1000 }, location: { min: 1, max: 100 } } as const;

/**
 * POST /api/reviews (signed in): writes the patient's one review, or rewrites it. It waits for the
 * clinic's approval; `message` says so. A 403 (no appointment yet) or 400 carries the server's message.
 */
export function saveReview(review: NewReview): Promise<ReviewSaved> {
  return client('POST /reviews', { body: review });
}
