import { api } from '../../../lib/api.ts';

/** What a patient writes; the server adds their name and photo from their profile. */
export type NewReview = { review: string; location: string };

/** The limits POST /api/reviews enforces (after trimming). */
export const REVIEW_LIMITS = { review: { min: 10, max: 1000 }, location: { min: 1, max: 100 } } as const;

/** POST /api/reviews (signed in): 201 with the new review's id; a 400 carries the server's message. */
export function createReview(review: NewReview): Promise<{ acknowledged: boolean; insertedId: string }> {
  return api('/reviews', { method: 'POST', body: JSON.stringify(review) });
}
