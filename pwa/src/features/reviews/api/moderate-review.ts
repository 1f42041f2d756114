import type { Moderation, ReviewModerated } from '../../../../../contract/reviews.ts';
import { api } from '../../../lib/api.ts';

/**
 * PUT /api/reviews/:id/status (admin): approves or hides the version of the review the admin read;
 * a 409 says it was edited since.
 */
export function moderateReview(id: string, decision: Moderation): Promise<ReviewModerated> {
  return api(`/reviews/${encodeURIComponent(id)}/status`, { method: 'PUT', body: JSON.stringify(decision) });
}
