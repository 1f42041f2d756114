import type { Moderation, ReviewModerated } from '../../../../../contract/reviews.ts';
import { client } from '../../../lib/client.ts';

/**
 * PUT /api/reviews/:id/status (admin): approves or hides the version of the review the admin read;
 * a 409 says it was edited since.
 */
export function moderateReview(id: string, decision: Moderation): Promise<ReviewModerated> {
  return client('PUT /reviews/:id/status', { params: { id }, body: decision });
}
